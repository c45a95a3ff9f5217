export { ReadThroughCache, type ReadThroughCacheOptions } from './read-through-cache';

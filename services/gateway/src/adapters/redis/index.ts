export { RedisTokenCache, type RedisTokenCacheOptions } from './token-cache.redis';
export { RedisRateLimiter, type RedisRateLimiterOptions } from './rate-limiter.redis';

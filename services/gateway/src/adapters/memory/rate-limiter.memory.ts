import { RateLimiterMemory } from 'rate-limiter-flexible';
import { GcraRateLimiter } from '../rate-limit/gcra.rate-limiter';

/** The in-process rate limiter (embedded runtime, one gateway): rate-limiter-flexible's memory store. */
export function createMemoryRateLimiter(): GcraRateLimiter {
  return new GcraRateLimiter({
    store: (keyPrefix) => new RateLimiterMemory({ keyPrefix, points: 1, duration: 1 }),
    boundKeys: true,
  });
}

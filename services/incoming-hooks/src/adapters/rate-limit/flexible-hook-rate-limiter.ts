import type { Redis } from 'ioredis';
import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { HookRateLimiter, RateDecision } from '../../domain/ports';

interface Limiter {
  consume(key: string): Promise<RateLimiterRes>;
}

/**
 * Per-hook limit on rate-limiter-flexible: `perSec` requests per second, plus a burst reserve of
 * `maxBurst` that refills over maxBurst/perSec seconds (BurstyRateLimiter). In memory by default; in
 * Redis (shared by every replica) when a client is given. Limiters are rebuilt when the config changes.
 */
export class FlexibleHookRateLimiter implements HookRateLimiter {
  private current: { key: string; limiter: Limiter } | undefined;

  public constructor(private readonly redis?: Redis) {}

  public async consume(hookId: string, perSec: number, maxBurst: number): Promise<RateDecision> {
    const limiter = this.limiterFor(perSec, maxBurst);
    const limit = perSec + Math.max(0, maxBurst);
    try {
      const res = await limiter.consume(hookId);
      return { allowed: true, retryAfterSeconds: 0, limit, remaining: Math.max(0, res.remainingPoints) };
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)), limit, remaining: 0 };
      }
      throw rejection;
    }
  }

  public async close(): Promise<void> {
    this.current = undefined;
  }

  private limiterFor(perSec: number, maxBurst: number): Limiter {
    const key = `${perSec}:${maxBurst}`;
    if (this.current?.key === key) return this.current.limiter;
    const make = (points: number, duration: number, prefix: string): RateLimiterAbstract =>
      this.redis
        ? new RateLimiterRedis({ storeClient: this.redis, points, duration, keyPrefix: `incoming-hooks:rl:${prefix}:${key}` })
        : new RateLimiterMemory({ points, duration, keyPrefix: `incoming-hooks:rl:${prefix}:${key}` });
    const base = make(Math.max(1, Math.floor(perSec)), 1, 'rate');
    const limiter: Limiter = maxBurst > 0 ? new BurstyRateLimiter(base, make(maxBurst, Math.max(1, Math.ceil(maxBurst / perSec)), 'burst')) : base;
    this.current = { key, limiter };
    return limiter;
  }
}

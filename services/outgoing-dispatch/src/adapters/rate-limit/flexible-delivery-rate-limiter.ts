import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { DeliveryRateLimiter } from '../../domain/ports';

/** The longest a put-off delivery is told to wait at once (it asks again then). */
const MAX_DELAY_MS = 3_600_000;

/**
 * Per-hook outgoing limit on rate-limiter-flexible (as incoming-hooks' per-hook limit): `perSec` attempts a
 * second plus a burst reserve of `maxBurst` refilled over maxBurst/perSec seconds, in this instance's memory.
 * A refused attempt is told when to come back: after the window ends, plus one second for every `perSec`
 * attempts already refused in this window, so a storm comes back spread at about the allowed rate instead
 * of all at once. Limiters are rebuilt when the config changes.
 */
export class FlexibleDeliveryRateLimiter implements DeliveryRateLimiter {
  private current: { key: string; limiter: BurstyRateLimiter | RateLimiterMemory } | undefined;

  public async delayMs(hookId: string, perSec: number, maxBurst: number): Promise<number> {
    if (!(perSec > 0)) return 0;
    const limiter = this.limiterFor(perSec, maxBurst);
    try {
      await limiter.consume(hookId);
      return 0;
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const rate = Math.max(1, Math.floor(perSec));
      const ahead = Math.max(0, rejection.consumedPoints - rate - 1);
      return Math.min(MAX_DELAY_MS, Math.max(1, rejection.msBeforeNext) + Math.floor(ahead / rate) * 1000);
    }
  }

  private limiterFor(perSec: number, maxBurst: number): BurstyRateLimiter | RateLimiterMemory {
    const key = `${perSec}:${maxBurst}`;
    if (this.current?.key === key) return this.current.limiter;
    const base = new RateLimiterMemory({ points: Math.max(1, Math.floor(perSec)), duration: 1, keyPrefix: `outgoing:rl:rate:${key}` });
    const limiter = maxBurst > 0 ? new BurstyRateLimiter(base, new RateLimiterMemory({ points: Math.floor(maxBurst), duration: Math.max(1, Math.ceil(maxBurst / perSec)), keyPrefix: `outgoing:rl:burst:${key}` })) : base;
    this.current = { key, limiter };
    return limiter;
  }
}

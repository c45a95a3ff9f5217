import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RateDecision, RateLimiter, RatePolicy } from '../../domain/ports';
import { KeyedQueue } from './keyed-queue';

/** Makes the rate-limiter-flexible store that holds each key's theoretical arrival time. */
export type TatStoreFactory = (keyPrefix: string) => RateLimiterAbstract;

export interface GcraOptions {
  readonly store: TatStoreFactory;
  /** Forget the least recently seen keys beyond the policy's `maxKeys` (the reference's LRU memory store). */
  readonly boundKeys?: boolean;
  readonly now?: () => number;
}

interface Active {
  readonly signature: string;
  readonly store: RateLimiterAbstract;
}

const ceilSeconds = (ms: number): number => Math.max(0, Math.ceil(ms / 1000));

/**
 * The reference's limiter: throttled's GCRA with `limit = MaxBurst+1`, emission interval `1/PerSec` and
 * tolerance `(MaxBurst+1)/PerSec`. Each key's theoretical arrival time (TAT) lives in a rate-limiter-flexible
 * store as a record whose expiry *is* the TAT, so a key disappears exactly when its bucket is full again.
 * Requests for one key are serialised, so read-then-write cannot lose a count in this process.
 * A policy change starts from full buckets, as the reference does when its config changes.
 */
export class GcraRateLimiter implements RateLimiter {
  private active: Active | undefined;
  private readonly seen = new Map<string, true>();
  private readonly queue = new KeyedQueue();
  private readonly now: () => number;

  public constructor(private readonly options: GcraOptions) {
    this.now = options.now ?? Date.now;
  }

  public consume(key: string, policy: RatePolicy): Promise<RateDecision> {
    const store = this.storeFor(policy);
    return this.queue.run(key, async () => {
      if (this.options.boundKeys) await this.track(key, policy.maxKeys, store);
      return this.decide(store, key, policy);
    });
  }

  public async health(): Promise<boolean> {
    return true;
  }

  public async close(): Promise<void> {
    this.active = undefined;
    this.seen.clear();
  }

  private async decide(store: RateLimiterAbstract, key: string, policy: RatePolicy): Promise<RateDecision> {
    const interval = 1000 / policy.perSec;
    const limit = policy.maxBurst + 1;
    const tolerance = interval * limit;
    const now = this.now();
    const record = await store.get(key);
    const tat = record && record.msBeforeNext > 0 ? now + record.msBeforeNext : now;
    const newTat = Math.max(tat, now) + interval;
    const allowAt = newTat - tolerance;
    if (allowAt > now) {
      const ttl = tat - now;
      return { allowed: false, limit, remaining: remainingOf(tolerance - ttl, interval), resetSeconds: ceilSeconds(ttl), retryAfterSeconds: Math.max(1, ceilSeconds(allowAt - now)) };
    }
    const ttl = newTat - now;
    await store.set(key, 0, ttl / 1000);
    return { allowed: true, limit, remaining: remainingOf(tolerance - ttl, interval), resetSeconds: ceilSeconds(ttl), retryAfterSeconds: 0 };
  }

  private storeFor(policy: RatePolicy): RateLimiterAbstract {
    const signature = `${policy.perSec}:${policy.maxBurst}`;
    if (this.active?.signature !== signature) {
      this.seen.clear();
      this.active = { signature, store: this.options.store(`rl:${signature}`) };
    }
    return this.active.store;
  }

  private async track(key: string, maxKeys: number, store: RateLimiterAbstract): Promise<void> {
    this.seen.delete(key);
    this.seen.set(key, true);
    while (this.seen.size > maxKeys) {
      const oldest = this.seen.keys().next();
      if (oldest.done) break;
      this.seen.delete(oldest.value);
      await store.delete(oldest.value);
    }
  }
}

/** throttled: `next := tolerance - ttl; if next > -interval { remaining = int(next / interval) }`. */
function remainingOf(next: number, interval: number): number {
  return next > -interval ? Math.max(0, Math.trunc(next / interval + 1e-9)) : 0;
}

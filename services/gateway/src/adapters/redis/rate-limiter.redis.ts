import type { Redis } from 'ioredis';
import type { RateDecision, RateLimiter, RatePolicy } from '../../domain/ports';

export interface RedisRateLimiterOptions {
  readonly redis: Redis;
  readonly keyPrefix?: string;
  /** Quit the client on close() (only when this limiter created it). Default false. */
  readonly ownsClient?: boolean;
}

/**
 * GCRA in one script, so every gateway replica shares each key's bucket without a lost count: the key
 * holds the theoretical arrival time (TAT, ms on Redis' clock) and expires exactly when the bucket is full
 * again. ARGV: interval ms, tolerance ms. Returns {allowed, ttl ms, allowAt - now ms} as strings.
 */
const GCRA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[1])
local tolerance = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local newTat = tat + interval
local allowAt = newTat - tolerance
if allowAt > now then
  return {0, tostring(tat - now), tostring(allowAt - now)}
end
redis.call('SET', KEYS[1], tostring(newTat), 'PX', math.max(1, math.ceil(newTat - now)))
return {1, tostring(newTat - now), '0'}
`;

const ceilSeconds = (ms: number): number => Math.max(0, Math.ceil(ms / 1000));

/** throttled: `next := tolerance - ttl; if next > -interval { remaining = int(next / interval) }`. */
function remainingOf(next: number, interval: number): number {
  return next > -interval ? Math.max(0, Math.trunc(next / interval + 1e-9)) : 0;
}

/**
 * The reference's limiter (throttled's GCRA: `limit = MaxBurst+1`, emission interval `1/PerSec`, tolerance
 * `(MaxBurst+1)/PerSec`) on Redis, shared by every gateway replica. Keys carry the policy, so a policy
 * change starts from full buckets as the reference does. Keys expire on their own when their bucket is
 * full, so `maxKeys` (the reference's in-memory LRU bound) needs no tracking here.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly prefix: string;

  public constructor(private readonly options: RedisRateLimiterOptions) {
    this.prefix = options.keyPrefix ?? '';
  }

  public async consume(key: string, policy: RatePolicy): Promise<RateDecision> {
    const interval = 1000 / policy.perSec;
    const limit = policy.maxBurst + 1;
    const tolerance = interval * limit;
    const redisKey = `${this.prefix}rl:${policy.perSec}:${policy.maxBurst}:${key}`;
    const [allowed, ttlText, allowInText] = (await this.options.redis.eval(GCRA, 1, redisKey, String(interval), String(tolerance))) as [number, string, string];
    const ttl = Number(ttlText);
    const remaining = remainingOf(tolerance - ttl, interval);
    if (allowed === 1) return { allowed: true, limit, remaining, resetSeconds: ceilSeconds(ttl), retryAfterSeconds: 0 };
    return { allowed: false, limit, remaining, resetSeconds: ceilSeconds(ttl), retryAfterSeconds: Math.max(1, ceilSeconds(Number(allowInText))) };
  }

  public async health(): Promise<boolean> {
    try {
      return (await this.options.redis.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  public async close(): Promise<void> {
    if (this.options.ownsClient) await this.options.redis.quit();
  }
}

import type { ResolvedSession } from '@switchyard/contracts';

/**
 * Short-lived cache of resolved sessions, keyed by sha256(token) (never the token itself). Async so a
 * shared (Redis) adapter fits. `evictUser` drops every entry of one user at once (revocation, deactivation).
 */
export interface TokenCache {
  get(tokenHash: string): Promise<ResolvedSession | undefined>;
  set(tokenHash: string, session: ResolvedSession, ttlMs: number): Promise<void>;
  evictUser(userId: string): Promise<void>;
  health(): Promise<boolean>;
  close(): Promise<void>;
}

/** Turns a token into a session (users-bots' internal API); undefined when the token is not valid. */
export interface SessionSource {
  resolve(token: string): Promise<ResolvedSession | undefined>;
}


/** A token bucket's shape: `limit` = maxBurst + 1 requests at once, refilled at perSec. */
export interface RatePolicy {
  readonly perSec: number;
  readonly maxBurst: number;
  /** Bound on the number of keys tracked (`RateLimitSettings.MemoryStoreSize`). */
  readonly maxKeys: number;
}

export interface RateDecision {
  readonly allowed: boolean;
  /** maxBurst + 1 */
  readonly limit: number;
  readonly remaining: number;
  /** Whole seconds (rounded up) until the bucket is full again: a relative delta, not an epoch. */
  readonly resetSeconds: number;
  /** Whole seconds (rounded up) until a request would be allowed; meaningful when not allowed. */
  readonly retryAfterSeconds: number;
}

/** Counts requests per key against a policy; the policy may change between calls (live config). */
export interface RateLimiter {
  consume(key: string, policy: RatePolicy): Promise<RateDecision>;
  health(): Promise<boolean>;
  close(): Promise<void>;
}

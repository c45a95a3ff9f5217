import type { ResolvedSession } from '@switchyard/contracts';
import type { TokenCache } from '../../domain/ports';
import { MemoryTokenCache } from '../memory/token-cache.memory';

export interface TieredTokenCacheOptions {
  /** The cache every replica shares (Redis): the source of truth for cached sessions. */
  readonly shared: TokenCache;
  /** How long this replica keeps a session it read or wrote (its staleness bound when no eviction reaches it). */
  readonly localTtlMs: number;
  readonly maxEntries: number;
  readonly now?: () => number;
}

/**
 * A short-lived in-process layer in front of the shared token cache, so that a hot token costs no Redis
 * round trip per request. Revocations still reach every replica: each gateway evicts a user from both
 * layers on every users.events event (its own consumer group) and on its own writes; the local TTL bounds
 * how long a replica that missed an eviction may still accept the token. An entry read from the shared
 * layer is kept locally only if no eviction ran while it was being read, so a revocation is never undone.
 */
export class TieredTokenCache implements TokenCache {
  private readonly local: MemoryTokenCache;
  private evictions = 0;
  private readonly now: () => number;

  public constructor(private readonly options: TieredTokenCacheOptions) {
    this.now = options.now ?? Date.now;
    this.local = new MemoryTokenCache({ maxEntries: options.maxEntries, now: this.now });
  }

  public async get(tokenHash: string): Promise<ResolvedSession | undefined> {
    const near = await this.local.get(tokenHash);
    if (near) return near;
    const evictionsBefore = this.evictions;
    const session = await this.options.shared.get(tokenHash);
    if (session && evictionsBefore === this.evictions) await this.local.set(tokenHash, session, this.localTtl(session));
    return session;
  }

  public async set(tokenHash: string, session: ResolvedSession, ttlMs: number): Promise<void> {
    const evictionsBefore = this.evictions;
    await this.options.shared.set(tokenHash, session, ttlMs);
    if (evictionsBefore === this.evictions) await this.local.set(tokenHash, session, Math.min(ttlMs, this.localTtl(session)));
  }

  public async evictUser(userId: string): Promise<void> {
    this.evictions += 1;
    await this.local.evictUser(userId);
    await this.options.shared.evictUser(userId);
  }

  /** Sessions held by this replica (tests, metrics). */
  public get localSize(): number {
    return this.local.size;
  }

  public health(): Promise<boolean> {
    return this.options.shared.health();
  }

  public async close(): Promise<void> {
    await this.local.close();
    await this.options.shared.close();
  }

  private localTtl(session: ResolvedSession): number {
    const ttl = this.options.localTtlMs;
    return session.expiresAt > 0 ? Math.min(ttl, session.expiresAt - this.now()) : ttl;
  }
}

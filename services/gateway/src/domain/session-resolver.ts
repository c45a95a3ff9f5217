import { createHash } from 'node:crypto';
import type { ResolvedSession } from '@switchyard/contracts';
import type { Logger } from '@switchyard/logger';
import type { SessionSource, TokenCache } from './ports';

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface SessionResolverOptions {
  readonly cache: TokenCache;
  readonly source: SessionSource;
  readonly logger: Logger;
  /** How long a valid session is cached (capped by the session's own expiry). */
  readonly ttlMs: number;
  readonly now?: () => number;
  /**
   * Re-checks a cached session against the live config (e.g. human access tokens after
   * EnableUserAccessTokens is switched off); a refused entry is looked up again at the source.
   */
  readonly stillAllowed?: (session: ResolvedSession) => boolean;
}

/**
 * Resolves tokens through the cache, then the source. Concurrent lookups of one token share one call.
 * Failures are never cached. A resolve that overlaps an eviction is not cached either, so a revocation
 * cannot be undone by an answer that was already on its way.
 */
export class SessionResolver {
  private readonly inflight = new Map<string, Promise<ResolvedSession | undefined>>();
  private evictions = 0;
  private readonly now: () => number;

  public constructor(private readonly options: SessionResolverOptions) {
    this.now = options.now ?? Date.now;
  }

  /** `log`: the request's logger (ADR 0042), for the cache's failures. */
  public async resolve(token: string, log: Logger = this.options.logger): Promise<ResolvedSession | undefined> {
    const key = hashToken(token);
    const evictionsBefore = this.evictions;
    const cached = await this.cached(key, log);
    if (cached) return cached;
    let pending = this.inflight.get(key);
    if (!pending) {
      const started = this.fetch(key, token, evictionsBefore, log).finally(() => {
        if (this.inflight.get(key) === started) this.inflight.delete(key);
      });
      this.inflight.set(key, started);
      pending = started;
    }
    return pending;
  }

  /** Drops every cached session of a user (any users.events event about them). */
  public async evictUser(userId: string): Promise<void> {
    this.evictions += 1;
    this.inflight.clear();
    await this.options.cache.evictUser(userId);
  }

  private async cached(key: string, log: Logger): Promise<ResolvedSession | undefined> {
    try {
      const session = await this.options.cache.get(key);
      if (!session || this.expired(session)) return undefined;
      return this.options.stillAllowed && !this.options.stillAllowed(session) ? undefined : session;
    } catch (error) {
      log.warn('token cache read failed', { error });
      return undefined;
    }
  }

  private async fetch(key: string, token: string, evictionsBefore: number, log: Logger): Promise<ResolvedSession | undefined> {
    const session = await this.options.source.resolve(token);
    if (!session || this.expired(session)) return undefined;
    const ttl = session.expiresAt > 0 ? Math.min(this.options.ttlMs, session.expiresAt - this.now()) : this.options.ttlMs;
    if (ttl > 0 && evictionsBefore === this.evictions) {
      try {
        await this.options.cache.set(key, session, ttl);
        // An eviction that ran while a shared cache was being written must still win.
        if (evictionsBefore !== this.evictions) await this.options.cache.evictUser(session.userId);
      } catch (error) {
        log.warn('token cache write failed', { error });
      }
    }
    return session;
  }

  private expired(session: ResolvedSession): boolean {
    return session.expiresAt > 0 && session.expiresAt <= this.now();
  }
}

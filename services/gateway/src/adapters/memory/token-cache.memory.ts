import type { ResolvedSession } from '@switchyard/contracts';
import type { TokenCache } from '../../domain/ports';

interface Entry {
  readonly session: ResolvedSession;
  readonly expiresAt: number;
}

export interface MemoryTokenCacheOptions {
  /** Entries kept at most; the least recently used goes first. */
  readonly maxEntries: number;
  readonly now?: () => number;
}

/** Bounded LRU with per-entry expiry and a userId → keys index for instant eviction. */
export class MemoryTokenCache implements TokenCache {
  private readonly entries = new Map<string, Entry>();
  private readonly byUser = new Map<string, Set<string>>();
  private readonly now: () => number;

  public constructor(private readonly options: MemoryTokenCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  public async get(tokenHash: string): Promise<ResolvedSession | undefined> {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.remove(tokenHash);
      return undefined;
    }
    // Move to the back: Map keeps insertion order, so the front is the least recently used.
    this.entries.delete(tokenHash);
    this.entries.set(tokenHash, entry);
    return entry.session;
  }

  public async set(tokenHash: string, session: ResolvedSession, ttlMs: number): Promise<void> {
    if (ttlMs <= 0) return;
    this.remove(tokenHash);
    this.entries.set(tokenHash, { session, expiresAt: this.now() + ttlMs });
    let keys = this.byUser.get(session.userId);
    if (!keys) {
      keys = new Set();
      this.byUser.set(session.userId, keys);
    }
    keys.add(tokenHash);
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.remove(oldest.value);
    }
  }

  public async evictUser(userId: string): Promise<void> {
    const keys = this.byUser.get(userId);
    if (!keys) return;
    this.byUser.delete(userId);
    for (const key of keys) this.entries.delete(key);
  }

  public get size(): number {
    return this.entries.size;
  }

  public async health(): Promise<boolean> {
    return true;
  }

  public async close(): Promise<void> {
    this.entries.clear();
    this.byUser.clear();
  }

  private remove(tokenHash: string): void {
    const entry = this.entries.get(tokenHash);
    if (!entry) return;
    this.entries.delete(tokenHash);
    const keys = this.byUser.get(entry.session.userId);
    keys?.delete(tokenHash);
    if (keys && keys.size === 0) this.byUser.delete(entry.session.userId);
  }
}

/** A stored upstream answer: what the gateway writes back for a hit (status, client headers, body). */
export interface StoredAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[]>>;
  readonly body: Buffer;
}

interface Entry {
  readonly userId: string;
  readonly answer: StoredAnswer;
  readonly until: number;
}

export interface SelfAnswerCacheOptions {
  /** How long an answer is reused (0: never stored). */
  readonly ttlMs: number;
  readonly maxEntries: number;
  readonly now?: () => number;
}

/**
 * `GET /api/v4/users/me` answers per session, reused for `ttlMs`: a client polling its own user costs the
 * gateway no round trip to users-bots. Dropped with the user's sessions (every users.events event about
 * them, and a service's affected-users header before the answer that changed them), and all at once when
 * the live config changes. An answer fetched while any eviction ran is not kept (it may predate it), so
 * a user's own write is read back through this gateway at once; another replica's write at most `ttlMs`
 * later if its users.events eviction is missed, the bound the in-process session layer already has.
 */
export class SelfAnswerCache {
  private readonly entries = new Map<string, Entry>();
  private readonly byUser = new Map<string, Set<string>>();
  private readonly now: () => number;
  private evictions = 0;

  public constructor(private readonly options: SelfAnswerCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  public get enabled(): boolean {
    return this.options.ttlMs > 0;
  }

  /** A counter to pass back to `set`: an answer fetched across an eviction is dropped. */
  public mark(): number {
    return this.evictions;
  }

  public get(sessionId: string): StoredAnswer | undefined {
    const entry = this.entries.get(sessionId);
    if (!entry) return undefined;
    if (entry.until <= this.now()) {
      this.remove(sessionId, entry.userId);
      return undefined;
    }
    return entry.answer;
  }

  public set(sessionId: string, userId: string, answer: StoredAnswer, mark: number): void {
    if (!this.enabled || mark !== this.evictions) return;
    if (!this.entries.has(sessionId) && this.entries.size >= this.options.maxEntries) this.clear();
    this.entries.set(sessionId, { userId, answer, until: this.now() + this.options.ttlMs });
    let sessions = this.byUser.get(userId);
    if (!sessions) this.byUser.set(userId, (sessions = new Set()));
    sessions.add(sessionId);
  }

  public evictUser(userId: string): void {
    this.evictions += 1;
    for (const sessionId of this.byUser.get(userId) ?? []) this.entries.delete(sessionId);
    this.byUser.delete(userId);
  }

  public clear(): void {
    this.evictions += 1;
    this.entries.clear();
    this.byUser.clear();
  }

  private remove(sessionId: string, userId: string): void {
    this.entries.delete(sessionId);
    const sessions = this.byUser.get(userId);
    sessions?.delete(sessionId);
    if (sessions?.size === 0) this.byUser.delete(userId);
  }
}

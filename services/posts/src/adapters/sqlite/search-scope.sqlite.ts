import type { SqliteStatement, SqliteStore } from '@switchyard/sqlite-kit';
import type { SearchScope } from '../../domain/search/search-scope.port';

/** Scopes kept at most (users × team × archived); the whole cache is dropped beyond it. */
const MAX_CACHED = 2_000;

/**
 * The search scope in one query: the user's memberships joined with their channels (ids only, no document
 * read). Answers are reused while the store's scope version (migration 7: bumped by triggers in the very
 * statement of every membership insert/delete and every channel archive/restore/move/delete) is unchanged,
 * so a member removed a moment ago never finds that channel's posts: one single-row read per search instead
 * of a thousand-row join. The store has one process, so the version read here is the store's own.
 */
export class SqliteSearchScope implements SearchScope {
  private readonly inTeam: SqliteStatement<[string, string, number], string>;
  private readonly everyTeam: SqliteStatement<[string, number], string>;
  private readonly version: SqliteStatement<[], number>;
  private readonly cached = new Map<string, readonly string[]>();
  private cachedAt = -1;

  public constructor(store: SqliteStore) {
    const base = 'SELECT m.channel_id FROM p_channel_members m JOIN p_channels c ON c.id = m.channel_id WHERE m.user_id = ?';
    this.inTeam = store.db.prepare<[string, string, number], string>(`${base} AND c.team_id IN (?, '') AND (c.delete_at = 0 OR ?)`).pluck();
    this.everyTeam = store.db.prepare<[string, number], string>(`${base} AND (c.delete_at = 0 OR ?)`).pluck();
    this.version = store.db.prepare<[], number>('SELECT v FROM p_search_scope_version WHERE id = 1').pluck();
  }

  public async readableChannelIds(userId: string, teamId: string | undefined, includeArchived: boolean): Promise<readonly string[]> {
    const version = this.version.get() ?? -1;
    if (version !== this.cachedAt || this.cached.size >= MAX_CACHED) {
      this.cached.clear();
      this.cachedAt = version;
    }
    const key = `${userId}\u0000${teamId ?? '\u0001'}\u0000${includeArchived ? 1 : 0}`;
    let ids = this.cached.get(key);
    if (ids === undefined) {
      const archived = includeArchived ? 1 : 0;
      ids = Object.freeze(teamId === undefined ? this.everyTeam.all(userId, archived) : this.inTeam.all(userId, teamId, archived));
      this.cached.set(key, ids);
    }
    // The cached list itself (frozen): the same list while the scope is unchanged lets the search reuse its channel set.
    return ids;
  }
}

import type { SqliteStatement, SqliteStore } from '@switchyard/sqlite-kit';
import type { SearchScope } from '../../domain/search/search-scope.port';

/** The search scope in one query: the user's memberships joined with their channels (ids only, no document read). */
export class SqliteSearchScope implements SearchScope {
  private readonly inTeam: SqliteStatement<[string, string, number], string>;
  private readonly everyTeam: SqliteStatement<[string, number], string>;

  public constructor(store: SqliteStore) {
    const base = 'SELECT m.channel_id FROM p_channel_members m JOIN p_channels c ON c.id = m.channel_id WHERE m.user_id = ?';
    this.inTeam = store.db.prepare<[string, string, number], string>(`${base} AND c.team_id IN (?, '') AND (c.delete_at = 0 OR ?)`).pluck();
    this.everyTeam = store.db.prepare<[string, number], string>(`${base} AND (c.delete_at = 0 OR ?)`).pluck();
  }

  public async readableChannelIds(userId: string, teamId: string | undefined, includeArchived: boolean): Promise<string[]> {
    const archived = includeArchived ? 1 : 0;
    return teamId === undefined ? this.everyTeam.all(userId, archived) : this.inTeam.all(userId, teamId, archived);
  }
}

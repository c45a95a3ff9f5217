import { fromDoc, fromDocs, type DocRow, type SqliteStore } from '@switchyard/sqlite-kit';
import { applyMembershipChange, type ThreadMembership, type ThreadMembershipChange, type ThreadMembershipKey, type ThreadMembershipRepository } from '../../domain/threads/thread-ports';

/** Thread memberships in p_thread_memberships: the document plus the columns the queries use. */
export class SqliteThreadMembershipRepository implements ThreadMembershipRepository {
  private readonly one;
  private readonly upsert;
  private readonly following;
  private readonly followers;
  private readonly ofUserInTeams;

  public constructor(private readonly store: SqliteStore) {
    const db = store.db;
    this.one = db.prepare<[string, string], DocRow>('SELECT doc FROM p_thread_memberships WHERE post_id = ? AND user_id = ?');
    this.upsert = db.prepare(
      'INSERT INTO p_thread_memberships (post_id, user_id, team_id, following, doc) VALUES (?, ?, ?, ?, ?) ON CONFLICT (post_id, user_id) DO UPDATE SET following = excluded.following, doc = excluded.doc',
    );
    this.following = db.prepare<[string, string], DocRow>(
      'SELECT doc FROM p_thread_memberships WHERE user_id = ? AND following = 1 AND team_id IN (SELECT value FROM json_each(?))',
    );
    this.followers = db.prepare<[string], DocRow>('SELECT doc FROM p_thread_memberships WHERE post_id = ? AND following = 1');
    this.ofUserInTeams = db.prepare<[string, string], DocRow>('SELECT doc FROM p_thread_memberships WHERE user_id = ? AND team_id IN (SELECT value FROM json_each(?))');
  }

  public async find(postId: string, userId: string): Promise<ThreadMembership | undefined> {
    return fromDoc<ThreadMembership>(this.one.get(postId, userId));
  }

  public async maintain(key: ThreadMembershipKey, change: ThreadMembershipChange): Promise<ThreadMembership> {
    // Read and write in one transaction of the store's single writer: concurrent changes never interleave.
    return this.store.write(() => {
      const next = applyMembershipChange(fromDoc<ThreadMembership>(this.one.get(key.post_id, key.user_id)), key, change);
      this.save(next);
      return next;
    });
  }

  public async listFollowing(userId: string, teamIds: readonly string[]): Promise<ThreadMembership[]> {
    return fromDocs<ThreadMembership>(this.following.all(userId, JSON.stringify(teamIds)));
  }

  public async listFollowers(postId: string): Promise<ThreadMembership[]> {
    return fromDocs<ThreadMembership>(this.followers.all(postId));
  }

  public async markAllRead(userId: string, teamIds: readonly string[], at: number): Promise<number> {
    return this.store.write(() => {
      const all = fromDocs<ThreadMembership>(this.ofUserInTeams.all(userId, JSON.stringify(teamIds)));
      for (const m of all) this.save({ ...m, last_viewed: at, last_updated: at, unread_mentions: 0 });
      return all.length;
    });
  }

  private save(m: ThreadMembership): void {
    this.upsert.run(m.post_id, m.user_id, m.team_id, m.following ? 1 : 0, JSON.stringify(m));
  }
}

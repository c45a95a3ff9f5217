import { definedChanges, fromDoc, fromDocs, inKeyOrder, jsonList, type DocRow, type SqliteStatement, type SqliteStore } from '@switchyard/sqlite-kit';
import type { PendingEvent, PostChanges, StoredPost } from '../../domain/entities';
import type { PostQuery, PostRepository } from '../../domain/ports';
import { mapDuplicates } from './sqlite-support';

const UNIQUE_KEYS = { id: 'id' };
const IMMUTABLE = ['id', 'channel_id', 'user_id', 'create_at', 'pending_events'];

function columns(p: StoredPost): unknown[] {
  return [p.id, p.channel_id, p.user_id, p.pending_post_id, p.create_at, p.update_at, p.delete_at, p.pending_events.length > 0 ? 1 : 0, JSON.stringify(p)];
}

export class SqlitePostRepository implements PostRepository {
  private readonly insertRow;
  private readonly replaceRow;
  private readonly setOutbox;
  private readonly byId;
  private readonly byIds;
  private readonly byPendingPost;
  private readonly outbox;
  private readonly deleteRow;
  private readonly replies;
  /** list() statements by the filters they use (a handful of shapes). */
  private readonly listStatements = new Map<string, SqliteStatement<unknown[], DocRow>>();

  public constructor(private readonly store: SqliteStore) {
    const db = store.db;
    this.insertRow = db.prepare('INSERT INTO p_posts (id, channel_id, user_id, pending_post_id, create_at, update_at, delete_at, outbox, doc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
    this.replaceRow = db.prepare(
      'UPDATE p_posts SET id = ?, channel_id = ?, user_id = ?, pending_post_id = ?, create_at = ?, update_at = ?, delete_at = ?, outbox = ?, doc = ? WHERE id = ?',
    );
    this.setOutbox = db.prepare('UPDATE p_posts SET outbox = ?, doc = ? WHERE id = ?');
    this.byId = db.prepare<[string], DocRow>('SELECT doc FROM p_posts WHERE id = ?');
    this.byIds = db.prepare<[string], DocRow & { k: string }>('SELECT id AS k, doc FROM p_posts WHERE id IN (SELECT value FROM json_each(?))');
    this.byPendingPost = db.prepare<[string, string, number], DocRow>(
      "SELECT doc FROM p_posts WHERE user_id = ? AND pending_post_id = ? AND pending_post_id <> '' AND create_at >= ? ORDER BY create_at DESC LIMIT 1",
    );
    this.outbox = db.prepare<[number], DocRow>('SELECT doc FROM p_posts WHERE outbox = 1 ORDER BY create_at, id LIMIT ?');
    this.deleteRow = db.prepare('DELETE FROM p_posts WHERE id = ?');
    this.replies = db.prepare<[string, string], DocRow>("SELECT doc FROM p_posts WHERE channel_id = ? AND delete_at = 0 AND json_extract(doc, '$.root_id') = ? ORDER BY create_at, id");
  }

  public async insert(post: StoredPost): Promise<void> {
    await this.store.write(() => mapDuplicates(UNIQUE_KEYS, () => this.insertRow.run(...columns(post))));
  }

  public async findById(id: string): Promise<StoredPost | undefined> {
    return fromDoc<StoredPost>(this.byId.get(id));
  }

  public async findByIds(ids: readonly string[]): Promise<StoredPost[]> {
    if (ids.length === 0) return [];
    return inKeyOrder<StoredPost>(ids, this.byIds.all(jsonList(ids)));
  }

  public async findByPendingPostId(userId: string, pendingPostId: string, since: number): Promise<StoredPost | undefined> {
    if (pendingPostId === '') return undefined;
    return fromDoc<StoredPost>(this.byPendingPost.get(userId, pendingPostId, since));
  }

  public async update(id: string, changes: PostChanges, event?: PendingEvent): Promise<StoredPost | undefined> {
    return this.store.write(() => this.change(id, (post) => ({ ...post, ...definedChanges(changes, IMMUTABLE), id, pending_events: event ? [...post.pending_events, event] : post.pending_events })));
  }

  public async addEvent(id: string, event: PendingEvent): Promise<StoredPost | undefined> {
    return this.update(id, {}, event);
  }

  public async clearEvent(id: string, eventId: string): Promise<void> {
    await this.store.write(() => {
      const post = fromDoc<StoredPost>(this.byId.get(id));
      if (!post) return;
      const pending = post.pending_events.filter((e) => e.id !== eventId);
      if (pending.length === post.pending_events.length) return;
      this.setOutbox.run(pending.length > 0 ? 1 : 0, JSON.stringify({ ...post, pending_events: pending }), id);
    });
  }

  public async withPendingEvents(limit: number): Promise<StoredPost[]> {
    if (!(limit > 0)) return [];
    return fromDocs<StoredPost>(this.outbox.all(limit));
  }

  public async list(query: PostQuery): Promise<StoredPost[]> {
    if (!(query.limit > 0)) return [];
    const where = ['channel_id = ?'];
    const params: unknown[] = [query.channelId];
    if (!query.includeDeleted) where.push('delete_at = 0');
    if (query.updatedSince !== undefined) {
      where.push('update_at > ?');
      params.push(query.updatedSince);
    }
    if (query.createdBefore !== undefined) {
      where.push('create_at < ?');
      params.push(query.createdBefore);
    }
    if (query.createdAfter !== undefined) {
      where.push('create_at > ?');
      params.push(query.createdAfter);
    }
    const direction = query.order === 'asc' ? 'ASC' : 'DESC';
    const sql = `SELECT doc FROM p_posts WHERE ${where.join(' AND ')} ORDER BY create_at ${direction}, id ${direction} LIMIT ? OFFSET ?`;
    let statement = this.listStatements.get(sql);
    if (!statement) {
      statement = this.store.db.prepare<unknown[], DocRow>(sql);
      this.listStatements.set(sql, statement);
    }
    return fromDocs<StoredPost>(statement.all(...params, query.limit, Math.max(0, query.skip)));
  }

  public async recordReply(rootId: string, at: number): Promise<void> {
    await this.store.write(() => {
      const root = fromDoc<StoredPost>(this.byId.get(rootId));
      if (!root) return;
      const next = { ...root, reply_count: root.reply_count + 1, last_reply_at: Math.max(root.last_reply_at, at) };
      this.setOutbox.run(next.pending_events.length > 0 ? 1 : 0, JSON.stringify(next), rootId);
    });
  }

  public async forgetReply(rootId: string): Promise<void> {
    await this.store.write(() => this.change(rootId, (root) => ({ ...root, reply_count: Math.max(0, root.reply_count - 1) })));
  }

  public async listReplies(channelId: string, rootId: string): Promise<StoredPost[]> {
    // The channel index narrows it; root_id lives in the document.
    return fromDocs<StoredPost>(this.replies.all(channelId, rootId));
  }

  public async deletePermanently(id: string): Promise<boolean> {
    return this.store.write(() => this.deleteRow.run(id).changes === 1);
  }

  /** Read, change and write one post inside the caller's write (atomic: writes run synchronously). */
  private change(id: string, next: (post: StoredPost) => StoredPost): StoredPost | undefined {
    const current = fromDoc<StoredPost>(this.byId.get(id));
    if (!current) return undefined;
    const updated = next(current);
    this.replaceRow.run(...columns(updated), id);
    return updated;
  }
}

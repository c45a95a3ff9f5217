import { definedChanges, jsonList, uniqueViolation, type SqliteStatement, type SqliteStore } from '@switchyard/sqlite-kit';
import type { PendingEvent, PostChanges, StoredPost } from '../../domain/entities';
import type { ClearedEvent, InsertManyResult, PostQuery, PostRepository } from '../../domain/ports';
import { NewPostSearchRows } from './post-search-rows.sqlite';
import { mapDuplicates } from './sqlite-support';

const UNIQUE_KEYS = { id: 'id' };
const IMMUTABLE = ['id', 'channel_id', 'user_id', 'create_at', 'pending_events'];

/**
 * A post's row: the document without its pending events, which live in `events` (a JSON array), so the
 * outbox relay's `clearEvent` rewrites a short array instead of the whole post.
 */
interface PostRow {
  readonly doc: string;
  readonly events: string;
}

const NO_EVENTS = '[]';

/** A root post; the condition of the partial index p_posts_channel_roots (migration 13), written the same way. */
export const ROOTS_ONLY = "json_extract(doc, '$.root_id') = ''";

function columns(p: StoredPost): unknown[] {
  const { pending_events: events, ...doc } = p;
  return [p.id, p.channel_id, p.user_id, p.pending_post_id, p.create_at, p.update_at, p.delete_at, events.length > 0 ? 1 : 0, JSON.stringify(doc), eventsJson(events)];
}

/** What a new post keeps of its thread's participants: a root starts with none, a reply keeps none (NULL). */
function keptParticipants(p: StoredPost): string | null {
  return p.root_id === '' ? '[]' : null;
}

function eventsJson(events: readonly PendingEvent[]): string {
  return events.length === 0 ? NO_EVENTS : JSON.stringify(events);
}

function toPost(row: PostRow | undefined): StoredPost | undefined {
  if (row === undefined) return undefined;
  const post = JSON.parse(row.doc) as StoredPost;
  post.pending_events = row.events === NO_EVENTS ? [] : (JSON.parse(row.events) as PendingEvent[]);
  return post;
}

function toPosts(rows: readonly PostRow[]): StoredPost[] {
  return rows.map((row) => toPost(row) as StoredPost);
}

export class SqlitePostRepository implements PostRepository {
  private readonly insertRow;
  private readonly replaceRow;
  private readonly setEvents;
  private readonly eventsOf;
  private readonly setReplies;
  private readonly byId;
  private readonly byIds;
  private readonly byPendingPost;
  private readonly outbox;
  private readonly deleteRow;
  private readonly deleteRowid;
  private readonly replies;
  private readonly replyAuthorRows;
  private readonly repliesAfter;
  private readonly keptOf;
  private readonly setKept;
  private readonly searchRows: NewPostSearchRows;
  /** list() statements by the filters they use (a handful of shapes). */
  private readonly listStatements = new Map<string, SqliteStatement<unknown[], PostRow>>();

  public constructor(private readonly store: SqliteStore) {
    const db = store.db;
    this.insertRow = db.prepare(
      'INSERT INTO p_posts (id, channel_id, user_id, pending_post_id, create_at, update_at, delete_at, outbox, doc, events, participant_ids) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.replaceRow = db.prepare(
      'UPDATE p_posts SET id = ?, channel_id = ?, user_id = ?, pending_post_id = ?, create_at = ?, update_at = ?, delete_at = ?, outbox = ?, doc = ?, events = ? WHERE id = ?',
    );
    this.searchRows = new NewPostSearchRows(db);
    this.setEvents = db.prepare('UPDATE p_posts SET outbox = ?, events = ? WHERE id = ?');
    this.eventsOf = db.prepare<[string], { events: string }>('SELECT events FROM p_posts WHERE id = ?');
    // The reply counters change in the document only (no indexed column) and the author joins the kept
    // participants (migration 9; NULL: a root stored before they were kept) unless among them: one statement, no read.
    this.setReplies = db.prepare(
      "UPDATE p_posts SET update_at = max(update_at, CAST(? AS INTEGER)), doc = json_set(doc, '$.reply_count', json_extract(doc, '$.reply_count') + 1, '$.last_reply_at', max(json_extract(doc, '$.last_reply_at'), CAST(? AS INTEGER)), '$.update_at', max(json_extract(doc, '$.update_at'), CAST(? AS INTEGER))), " +
        "participant_ids = CASE WHEN participant_ids IS NULL OR EXISTS (SELECT 1 FROM json_each(participant_ids) WHERE value = ?) THEN participant_ids ELSE json_insert(participant_ids, '$[#]', ?) END WHERE id = ?",
    );
    this.keptOf = db.prepare<[string, string], { participant_ids: string | null }>('SELECT participant_ids FROM p_posts WHERE id = ? AND channel_id = ?');
    this.setKept = db.prepare('UPDATE p_posts SET participant_ids = ? WHERE id = ? AND participant_ids IS NOT NULL');
    this.byId = db.prepare<[string], PostRow>('SELECT doc, events FROM p_posts WHERE id = ?');
    this.byIds = db.prepare<[string], PostRow & { k: string }>('SELECT id AS k, doc, events FROM p_posts WHERE id IN (SELECT value FROM json_each(?))');
    this.byPendingPost = db.prepare<[string, string, number], PostRow>(
      "SELECT doc, events FROM p_posts WHERE user_id = ? AND pending_post_id = ? AND pending_post_id <> '' AND create_at >= ? ORDER BY create_at DESC LIMIT 1",
    );
    this.outbox = db.prepare<[number], PostRow>('SELECT doc, events FROM p_posts WHERE outbox = 1 ORDER BY create_at, id LIMIT ?');
    this.deleteRow = db.prepare('DELETE FROM p_posts WHERE id = ?');
    this.deleteRowid = db.prepare('DELETE FROM p_posts WHERE rowid = ?');
    this.replies = db.prepare<[string, string], PostRow>(
      // The replies index (migration 6): the root's own entries, whatever the size of its channel.
      "SELECT doc, events FROM p_posts INDEXED BY p_posts_root WHERE json_extract(doc, '$.root_id') = ? AND json_extract(doc, '$.root_id') <> '' AND channel_id = ? AND delete_at = 0 ORDER BY create_at, id",
    );
    this.replyAuthorRows = db.prepare<[string, string], { user_id: string }>(
      "SELECT user_id FROM p_posts INDEXED BY p_posts_root WHERE json_extract(doc, '$.root_id') = ? AND json_extract(doc, '$.root_id') <> '' AND channel_id = ? AND delete_at = 0 ORDER BY create_at, id",
    );
    this.repliesAfter = db.prepare<[string, string, number], { n: number }>(
      "SELECT count(*) AS n FROM p_posts INDEXED BY p_posts_root WHERE json_extract(doc, '$.root_id') = ? AND json_extract(doc, '$.root_id') <> '' AND channel_id = ? AND delete_at = 0 AND create_at > ?",
    );
  }

  public async insert(post: StoredPost): Promise<void> {
    await this.store.writeOne(() => mapDuplicates(UNIQUE_KEYS, () => this.insertOne(post)));
  }

  /**
   * One write of the group transaction, one statement per post: a row whose id exists fails its own statement
   * only (SQLite undoes a failing statement by itself), is reported and the others go on. No savepoint around
   * them (`writeOne`): the port lets a batch be partly stored on any other error, so SAVEPOINT and RELEASE
   * (two statements per call, one call per hook post) would buy nothing.
   */
  public async insertMany(posts: readonly StoredPost[]): Promise<InsertManyResult> {
    if (posts.length === 0) return { duplicates: [] };
    return this.store.writeOne(() => {
      const duplicates: number[] = [];
      for (const [index, post] of posts.entries()) {
        try {
          this.insertOne(post);
        } catch (error) {
          if (uniqueViolation(error) === undefined) throw error;
          duplicates.push(index);
        }
      }
      return { duplicates };
    });
  }

  public async findById(id: string): Promise<StoredPost | undefined> {
    return toPost(this.byId.get(id));
  }

  public async findByIds(ids: readonly string[]): Promise<StoredPost[]> {
    if (ids.length === 0) return [];
    const byKey = new Map(this.byIds.all(jsonList(ids)).map((row) => [row.k, row]));
    // In the order of `ids`, repeats repeated (each a separate copy), missing ones skipped.
    return ids.flatMap((id) => {
      const post = toPost(byKey.get(id));
      return post ? [post] : [];
    });
  }

  public async findByPendingPostId(userId: string, pendingPostId: string, since: number): Promise<StoredPost | undefined> {
    if (pendingPostId === '') return undefined;
    return toPost(this.byPendingPost.get(userId, pendingPostId, since));
  }

  public async update(id: string, changes: PostChanges, event?: PendingEvent): Promise<StoredPost | undefined> {
    return this.store.writeOne(() => this.change(id, (post) => ({ ...post, ...definedChanges(changes, IMMUTABLE), id, pending_events: event ? [...post.pending_events, event] : post.pending_events })));
  }

  public async addEvent(id: string, event: PendingEvent): Promise<StoredPost | undefined> {
    return this.update(id, {}, event);
  }

  public async clearEvent(id: string, eventId: string): Promise<void> {
    await this.store.writeOne(() => this.removeEvents(id, new Set([eventId])));
  }

  /** One write for all: each post's events array is read and rewritten once. */
  public async clearEvents(events: readonly ClearedEvent[]): Promise<void> {
    if (events.length === 0) return;
    const byPost = new Map<string, Set<string>>();
    for (const { postId, eventId } of events) {
      const ids = byPost.get(postId);
      if (ids) ids.add(eventId);
      else byPost.set(postId, new Set([eventId]));
    }
    await this.store.writeOne(() => {
      for (const [postId, eventIds] of byPost) this.removeEvents(postId, eventIds);
    });
  }

  public async withPendingEvents(limit: number): Promise<StoredPost[]> {
    if (!(limit > 0)) return [];
    return toPosts(this.outbox.all(limit));
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
    if (query.pinnedOnly) where.push("json_extract(doc, '$.is_pinned') = 1");
    // The very expression of the roots index's WHERE (migration 13), so SQLite reads that partial index.
    if (query.rootsOnly) where.push(ROOTS_ONLY);
    const direction = query.order === 'asc' ? 'ASC' : 'DESC';
    const sql = `SELECT doc, events FROM p_posts WHERE ${where.join(' AND ')} ORDER BY create_at ${direction}, id ${direction} LIMIT ? OFFSET ?`;
    let statement = this.listStatements.get(sql);
    if (!statement) {
      statement = this.store.db.prepare<unknown[], PostRow>(sql);
      this.listStatements.set(sql, statement);
    }
    return toPosts(statement.all(...params, query.limit, Math.max(0, query.skip)));
  }

  public async recordReply(rootId: string, at: number, authorId: string): Promise<void> {
    await this.store.writeOne(() => this.setReplies.run(at, at, at, authorId, authorId, rootId));
  }

  public async forgetReply(rootId: string): Promise<void> {
    await this.store.writeOne(() => {
      const root = this.change(rootId, (post) => ({ ...post, reply_count: Math.max(0, post.reply_count - 1) }));
      // In the same write: the live replies' authors as they are now (a root without kept ones stays so).
      if (root) this.setKept.run(JSON.stringify(this.authorsOf(root.channel_id, rootId)), rootId);
    });
  }

  public async participants(channelId: string, rootId: string): Promise<string[]> {
    const kept = this.keptOf.get(rootId, channelId)?.participant_ids;
    return kept === undefined || kept === null ? this.authorsOf(channelId, rootId) : (JSON.parse(kept) as string[]);
  }

  public async listReplies(channelId: string, rootId: string): Promise<StoredPost[]> {
    return toPosts(this.replies.all(rootId, channelId));
  }

  public async replyAuthors(channelId: string, rootId: string): Promise<string[]> {
    return this.authorsOf(channelId, rootId);
  }

  public async countRepliesAfter(channelId: string, rootId: string, after: number): Promise<number> {
    return this.repliesAfter.get(rootId, channelId, after)?.n ?? 0;
  }

  public async deletePermanently(id: string): Promise<boolean> {
    return this.store.writeOne(() => this.deleteRow.run(id).changes === 1);
  }

  /** The authors of the root's live replies in that channel, each once, in order of first reply (the replies index, no document read). */
  private authorsOf(channelId: string, rootId: string): string[] {
    return [...new Set(this.replyAuthorRows.all(rootId, channelId).map((r) => r.user_id))];
  }

  /** The post's row and its search rows, inside the caller's write (a duplicate id fails before either is written). */
  private insertOne(post: StoredPost): void {
    const { lastInsertRowid } = this.insertRow.run(...columns(post), keptParticipants(post));
    try {
      this.searchRows.add(lastInsertRowid, post);
    } catch (error) {
      // Not a duplicate post: the row goes again (its delete triggers take what was written of its search rows).
      this.deleteRowid.run(lastInsertRowid);
      throw new Error(`post ${post.id}: its search rows could not be written`, { cause: error });
    }
  }

  /** Removes the events from the post's outbox, inside the caller's write. */
  private removeEvents(id: string, eventIds: ReadonlySet<string>): void {
    const row = this.eventsOf.get(id);
    if (!row || row.events === NO_EVENTS) return;
    const events = JSON.parse(row.events) as PendingEvent[];
    const pending = events.filter((e) => !eventIds.has(e.id));
    if (pending.length === events.length) return;
    this.setEvents.run(pending.length > 0 ? 1 : 0, eventsJson(pending), id);
  }

  /** Read, change and write one post inside the caller's write (atomic: writes run synchronously). */
  private change(id: string, next: (post: StoredPost) => StoredPost): StoredPost | undefined {
    const current = toPost(this.byId.get(id));
    if (!current) return undefined;
    const updated = next(current);
    this.replaceRow.run(...columns(updated), id);
    return updated;
  }
}

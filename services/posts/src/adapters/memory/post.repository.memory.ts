import type { PendingEvent, PostChanges, StoredPost } from '../../domain/entities';
import { DuplicateKeyError, isDuplicateKeyError } from '../../domain/errors';
import type { ClearedEvent, InsertManyResult, PostQuery, PostRepository } from '../../domain/ports';
import { compareIds, copy } from './memory-utils';

const byCreate = (a: { create_at: number; id: string }, b: { create_at: number; id: string }): number => a.create_at - b.create_at || compareIds(a.id, b.id);

export class MemoryPostRepository implements PostRepository {
  private readonly byId = new Map<string, StoredPost>();
  /** channel id → its posts oldest first by (create_at, id): pages are read from either end without sorting. */
  private readonly byChannel = new Map<string, { create_at: number; id: string }[]>();
  /** Ids of posts whose outbox is not empty (the sweep reads only these). */
  private readonly pending = new Set<string>();
  /** `user_id pending_post_id` → post id (the 30 s dedupe of POST /posts). */
  private readonly byPending = new Map<string, string>();
  /** Root id → its participants (authors of live replies in order of first reply), kept by recordReply/forgetReply. */
  private readonly kept = new Map<string, string[]>();

  public async insert(post: StoredPost): Promise<void> {
    if (this.byId.has(post.id)) throw new DuplicateKeyError('id');
    this.byId.set(post.id, copy(post));
    if (post.pending_events.length > 0) this.pending.add(post.id);
    let keys = this.byChannel.get(post.channel_id);
    if (!keys) {
      keys = [];
      this.byChannel.set(post.channel_id, keys);
    }
    const key = { create_at: post.create_at, id: post.id };
    let at = keys.length;
    while (at > 0 && byCreate(keys[at - 1] as typeof key, key) > 0) at -= 1;
    keys.splice(at, 0, key);
    if (post.pending_post_id !== '') this.byPending.set(`${post.user_id} ${post.pending_post_id}`, post.id);
    if (post.root_id === '') this.kept.set(post.id, []);
  }

  public async insertMany(posts: readonly StoredPost[]): Promise<InsertManyResult> {
    const duplicates: number[] = [];
    for (const [index, post] of posts.entries()) {
      try {
        await this.insert(post);
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
        duplicates.push(index);
      }
    }
    return { duplicates };
  }

  public async findById(id: string): Promise<StoredPost | undefined> {
    const post = this.byId.get(id);
    return post ? copy(post) : undefined;
  }

  public async findByIds(ids: readonly string[]): Promise<StoredPost[]> {
    return ids.flatMap((id) => {
      const post = this.byId.get(id);
      return post ? [copy(post)] : [];
    });
  }

  public async findByPendingPostId(userId: string, pendingPostId: string, since: number): Promise<StoredPost | undefined> {
    const id = this.byPending.get(`${userId} ${pendingPostId}`);
    const post = id === undefined ? undefined : this.byId.get(id);
    return post && post.create_at >= since ? copy(post) : undefined;
  }

  public async update(id: string, changes: PostChanges, event?: PendingEvent): Promise<StoredPost | undefined> {
    const post = this.byId.get(id);
    if (!post) return undefined;
    const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as PostChanges;
    const next: StoredPost = { ...post, ...copy(defined), id, pending_events: event ? [...post.pending_events, copy(event)] : post.pending_events };
    this.byId.set(id, next);
    if (next.pending_events.length > 0) this.pending.add(id);
    return copy(next);
  }

  public async addEvent(id: string, event: PendingEvent): Promise<StoredPost | undefined> {
    return this.update(id, {}, event);
  }

  public async clearEvent(id: string, eventId: string): Promise<void> {
    const post = this.byId.get(id);
    if (!post) return;
    const remaining = post.pending_events.filter((e) => e.id !== eventId);
    this.byId.set(id, { ...post, pending_events: remaining });
    if (remaining.length === 0) this.pending.delete(id);
  }

  public async clearEvents(events: readonly ClearedEvent[]): Promise<void> {
    for (const { postId, eventId } of events) await this.clearEvent(postId, eventId);
  }

  public async withPendingEvents(limit: number): Promise<StoredPost[]> {
    return [...this.pending]
      .flatMap((id) => {
        const post = this.byId.get(id);
        return post ? [post] : [];
      })
      .sort((a, b) => a.create_at - b.create_at || compareIds(a.id, b.id))
      .slice(0, Math.max(0, limit))
      .map(copy);
  }

  public async list(query: PostQuery): Promise<StoredPost[]> {
    if (!(query.limit > 0)) return [];
    const keys = this.byChannel.get(query.channelId) ?? [];
    const asc = query.order === 'asc';
    const out: StoredPost[] = [];
    let skipped = 0;
    for (let i = 0; i < keys.length && out.length < query.limit; i++) {
      const key = keys[asc ? i : keys.length - 1 - i];
      const p = key === undefined ? undefined : this.byId.get(key.id);
      if (!p) continue;
      if (!query.includeDeleted && p.delete_at !== 0) continue;
      if (query.updatedSince !== undefined && !(p.update_at > query.updatedSince)) continue;
      if (query.createdBefore !== undefined && !(p.create_at < query.createdBefore)) continue;
      if (query.createdAfter !== undefined && !(p.create_at > query.createdAfter)) continue;
      if (query.pinnedOnly && !p.is_pinned) continue;
      if (query.rootsOnly && p.root_id !== '') continue;
      if (skipped < query.skip) {
        skipped += 1;
        continue;
      }
      out.push(copy(p));
    }
    return out;
  }

  public async recordReply(rootId: string, at: number, authorId: string): Promise<void> {
    const root = this.byId.get(rootId);
    if (!root) return;
    this.byId.set(rootId, { ...root, reply_count: root.reply_count + 1, last_reply_at: Math.max(root.last_reply_at, at), update_at: Math.max(root.update_at, at) });
    const kept = this.kept.get(rootId);
    if (kept && !kept.includes(authorId)) kept.push(authorId);
  }

  public async forgetReply(rootId: string): Promise<void> {
    const root = this.byId.get(rootId);
    if (!root) return;
    this.byId.set(rootId, { ...root, reply_count: Math.max(0, root.reply_count - 1) });
    if (this.kept.has(rootId)) this.kept.set(rootId, await this.replyAuthors(root.channel_id, rootId));
  }

  public async participants(channelId: string, rootId: string): Promise<string[]> {
    const kept = this.kept.get(rootId);
    return kept && this.byId.get(rootId)?.channel_id === channelId ? [...kept] : this.replyAuthors(channelId, rootId);
  }

  /** Test seam: the root as stored before participants were kept (the `participants` fallback). */
  public forgetKeptParticipants(rootId: string): void {
    this.kept.delete(rootId);
  }

  public async replyAuthors(channelId: string, rootId: string): Promise<string[]> {
    return [...new Set((await this.listReplies(channelId, rootId)).map((r) => r.user_id))];
  }

  public async countRepliesAfter(channelId: string, rootId: string, after: number): Promise<number> {
    return (await this.listReplies(channelId, rootId)).filter((r) => r.create_at > after).length;
  }

  public async listReplies(channelId: string, rootId: string): Promise<StoredPost[]> {
    const out: StoredPost[] = [];
    for (const key of this.byChannel.get(channelId) ?? []) {
      const post = this.byId.get(key.id);
      if (post && post.root_id === rootId && post.delete_at === 0) out.push(copy(post));
    }
    return out;
  }

  public async deletePermanently(id: string): Promise<boolean> {
    const post = this.byId.get(id);
    if (!post) return false;
    this.byId.delete(id);
    this.pending.delete(id);
    this.kept.delete(id);
    const keys = this.byChannel.get(post.channel_id);
    const index = keys?.findIndex((k) => k.id === id) ?? -1;
    if (keys && index >= 0) keys.splice(index, 1);
    const pendingKey = `${post.user_id} ${post.pending_post_id}`;
    if (this.byPending.get(pendingKey) === id) this.byPending.delete(pendingKey);
    return true;
  }
}

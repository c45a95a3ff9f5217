import type { PendingEvent, PostChanges, StoredPost } from '../../domain/entities';
import { DuplicateKeyError } from '../../domain/errors';
import type { PostQuery, PostRepository } from '../../domain/ports';
import { compareIds, copy } from './memory-utils';

export class MemoryPostRepository implements PostRepository {
  private readonly byId = new Map<string, StoredPost>();
  /** channel id → its posts' ids (listing scans one channel, not the whole store). */
  private readonly byChannel = new Map<string, Set<string>>();

  public async insert(post: StoredPost): Promise<void> {
    if (this.byId.has(post.id)) throw new DuplicateKeyError('id');
    this.byId.set(post.id, copy(post));
    let ids = this.byChannel.get(post.channel_id);
    if (!ids) {
      ids = new Set();
      this.byChannel.set(post.channel_id, ids);
    }
    ids.add(post.id);
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
    for (const post of this.byId.values()) {
      if (post.user_id === userId && post.pending_post_id === pendingPostId && post.create_at >= since) return copy(post);
    }
    return undefined;
  }

  public async update(id: string, changes: PostChanges, event?: PendingEvent): Promise<StoredPost | undefined> {
    const post = this.byId.get(id);
    if (!post) return undefined;
    const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as PostChanges;
    const next: StoredPost = { ...post, ...copy(defined), id, pending_events: event ? [...post.pending_events, copy(event)] : post.pending_events };
    this.byId.set(id, next);
    return copy(next);
  }

  public async addEvent(id: string, event: PendingEvent): Promise<StoredPost | undefined> {
    return this.update(id, {}, event);
  }

  public async clearEvent(id: string, eventId: string): Promise<void> {
    const post = this.byId.get(id);
    if (post) this.byId.set(id, { ...post, pending_events: post.pending_events.filter((e) => e.id !== eventId) });
  }

  public async withPendingEvents(limit: number): Promise<StoredPost[]> {
    return [...this.byId.values()]
      .filter((p) => p.pending_events.length > 0)
      .sort((a, b) => a.create_at - b.create_at || compareIds(a.id, b.id))
      .slice(0, Math.max(0, limit))
      .map(copy);
  }

  public async list(query: PostQuery): Promise<StoredPost[]> {
    const sign = query.order === 'asc' ? 1 : -1;
    const ids = this.byChannel.get(query.channelId) ?? new Set<string>();
    const matching: StoredPost[] = [];
    for (const id of ids) {
      const p = this.byId.get(id);
      if (!p) continue;
      if (!query.includeDeleted && p.delete_at !== 0) continue;
      if (query.updatedSince !== undefined && !(p.update_at > query.updatedSince)) continue;
      if (query.createdBefore !== undefined && !(p.create_at < query.createdBefore)) continue;
      if (query.createdAfter !== undefined && !(p.create_at > query.createdAfter)) continue;
      matching.push(p);
    }
    matching.sort((a, b) => sign * (a.create_at - b.create_at || compareIds(a.id, b.id)));
    if (!(query.limit > 0)) return [];
    return matching.slice(query.skip, query.skip + query.limit).map(copy);
  }

  public async recordReply(rootId: string, at: number): Promise<void> {
    const root = this.byId.get(rootId);
    if (root) this.byId.set(rootId, { ...root, reply_count: root.reply_count + 1, last_reply_at: Math.max(root.last_reply_at, at) });
  }

  public async deletePermanently(id: string): Promise<boolean> {
    const post = this.byId.get(id);
    if (!post) return false;
    this.byId.delete(id);
    this.byChannel.get(post.channel_id)?.delete(id);
    return true;
  }
}

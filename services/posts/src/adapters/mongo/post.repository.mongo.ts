import type { Model } from '@switchyard/mongo-kit';
import type { PendingEvent, PostChanges, StoredPost } from '../../domain/entities';
import type { ClearedEvent, InsertManyResult, PostQuery, PostRepository } from '../../domain/ports';
import { DuplicateKeyError, isDuplicateKeyError } from '../../domain/errors';
import { CoalescedInserts } from './coalesced-inserts';
import { asDomainError, byId, duplicateIndexes, setOf, type Filter } from './mongo-support';
import { fromPostDocument, postSchema, postSearchTerms, toPostDocument, type PostDocument } from './post.schema.mongo';

const POST_FIELDS = new Set(Object.keys(postSchema.paths));

/** Whether two versions of a post have the same fields its search terms are made of. */
function sameTermFields(a: Pick<PostDocument, 'message' | 'hashtags' | 'type' | 'delete_at'>, b: Pick<PostDocument, 'message' | 'hashtags' | 'type' | 'delete_at'>): boolean {
  return a.message === b.message && a.hashtags === b.hashtags && a.type === b.type && a.delete_at === b.delete_at;
}

/**
 * The document as the driver should store it: undefined fields left out (the driver would store null),
 * and a field the schema does not know refused, as mongoose's `strict: 'throw'` would.
 */
function storable(doc: PostDocument): PostDocument {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(doc)) {
    if (value === undefined) continue;
    if (!POST_FIELDS.has(key)) throw new Error(`posts: field ${key} is not in the post schema`);
    out[key] = value;
  }
  return out as PostDocument;
}

/**
 * Posts on mongoose. The per-post hot path (insert, findById, findByIds: a reply's root, findByPendingPostId:
 * every post of a client that sends a pending_post_id, clearEvent) goes to the driver's collection directly:
 * the documents are already in stored form, and mongoose's document building, casting and query objects cost
 * more CPU than the round trip itself.
 */
export class MongoPostRepository implements PostRepository {
  public constructor(private readonly model: Model<PostDocument>) {}

  /** Inserts asked for while one is being written go together in the next command (CoalescedInserts). */
  private readonly inserts = new CoalescedInserts<StoredPost>((posts) => this.insertNew(posts), () => new DuplicateKeyError('id'));

  public insert(post: StoredPost): Promise<void> {
    return this.inserts.insert(post);
  }

  /** One post: an `insert` command through insertOne (less driver work than a bulk of one); several: insertMany. */
  private async insertNew(posts: readonly StoredPost[]): Promise<InsertManyResult> {
    if (posts.length !== 1) return this.insertMany(posts);
    try {
      await this.model.collection.insertOne(storable(toPostDocument(posts[0] as StoredPost)) as never);
      return { duplicates: [] };
    } catch (error) {
      const mapped = asDomainError(error, { _id: 'id' });
      if (isDuplicateKeyError(mapped)) return { duplicates: [0] };
      throw mapped;
    }
  }

  /** One `insert` command, unordered: the server writes every new id and reports each existing one. */
  public async insertMany(posts: readonly StoredPost[]): Promise<InsertManyResult> {
    if (posts.length === 0) return { duplicates: [] };
    const docs = posts.map((post) => storable(toPostDocument(post)));
    try {
      await this.model.collection.insertMany(docs as never[], { ordered: false });
      return { duplicates: [] };
    } catch (error) {
      const duplicates = duplicateIndexes(error);
      if (duplicates === undefined) throw error;
      return { duplicates };
    }
  }

  public async findById(id: string): Promise<StoredPost | undefined> {
    const doc = (await this.model.collection.findOne(byId(id))) as PostDocument | null;
    return doc ? fromPostDocument(doc) : undefined;
  }

  public async findByIds(ids: readonly string[]): Promise<StoredPost[]> {
    if (ids.length === 0) return [];
    const docs = (await this.model.collection.find({ _id: { $in: [...ids] } } as never).toArray()) as unknown as PostDocument[];
    const byId = new Map(docs.map((d) => [d._id, fromPostDocument(d)] as const));
    return ids.flatMap((id) => {
      const post = byId.get(id);
      return post ? [post] : [];
    });
  }

  public async findByPendingPostId(userId: string, pendingPostId: string, since: number): Promise<StoredPost | undefined> {
    const filter = { user_id: userId, pending_post_id: pendingPostId, create_at: { $gte: since } };
    const doc = (await this.model.collection.findOne(filter as never, { sort: { create_at: -1 } })) as PostDocument | null;
    return doc ? fromPostDocument(doc) : undefined;
  }

  public async update(id: string, changes: PostChanges, event?: PendingEvent): Promise<StoredPost | undefined> {
    const set = setOf(changes, ['id', 'channel_id', 'user_id', 'create_at', 'pending_events', 'participants']);
    if (typeof set.props === 'object' && set.props !== null) set.props = JSON.stringify(set.props);
    if (typeof set.metadata === 'object' && set.metadata !== null) set.metadata = JSON.stringify(set.metadata);
    if (typeof set.message === 'string' || typeof set.delete_at === 'number') return this.updateWithTerms(id, set, event);
    const update: Record<string, unknown> = {};
    if (Object.keys(set).length > 0) update.$set = set;
    if (event) update.$push = { pending_events: event };
    if (Object.keys(update).length === 0) return this.findById(id);
    const doc = await this.model.findOneAndUpdate({ _id: id }, update, { new: true }).lean<PostDocument>();
    return doc ? fromPostDocument(doc) : undefined;
  }

  /**
   * A change of the message or of delete_at also rewrites the post's search terms, made from the fields read
   * just before. The write is filtered by `_id` alone (a filter with more fields is a scan of the whole posts
   * collection on the MongoDB-wire emulator, ADR 0037's addendum) and returns the post as written: when another
   * write changed a field the terms are made of in between, the terms alone are written again from the post
   * as it is then (the changes and the event are not repeated), so the terms always follow the stored message.
   */
  private async updateWithTerms(id: string, set: Record<string, unknown>, event: PendingEvent | undefined): Promise<StoredPost | undefined> {
    const current = (await this.model.collection.findOne(byId(id))) as PostDocument | null;
    if (!current) return undefined;
    const next = { message: current.message, hashtags: current.hashtags, type: current.type, delete_at: current.delete_at, ...set } as PostDocument;
    const update: Record<string, unknown> = { $set: { ...set, search_terms: postSearchTerms(next) } };
    if (event) update.$push = { pending_events: event };
    let expected: PostDocument = next;
    let written = await this.model.findOneAndUpdate({ _id: id }, update, { new: true }).lean<PostDocument>();
    for (let attempt = 0; written && !sameTermFields(written, expected); attempt += 1) {
      if (attempt >= 5) throw new Error(`posts: post ${id} kept changing during an update`);
      expected = written;
      written = await this.model.findOneAndUpdate({ _id: id }, { $set: { search_terms: postSearchTerms(expected) } }, { new: true }).lean<PostDocument>();
    }
    return written ? fromPostDocument(written) : undefined;
  }

  public async addEvent(id: string, event: PendingEvent): Promise<StoredPost | undefined> {
    return this.update(id, {}, event);
  }

  public async clearEvent(id: string, eventId: string): Promise<void> {
    await this.model.collection.updateOne(byId(id), { $pull: { pending_events: { id: eventId } } } as never);
  }

  /** One round trip: an unordered bulk of single-post pulls (one `update` command). */
  public async clearEvents(events: readonly ClearedEvent[]): Promise<void> {
    if (events.length === 0) return;
    if (events.length === 1) {
      const [only] = events as [ClearedEvent];
      return this.clearEvent(only.postId, only.eventId);
    }
    const ops = events.map(({ postId, eventId }) => ({ updateOne: { filter: byId(postId), update: { $pull: { pending_events: { id: eventId } } } } }));
    await this.model.collection.bulkWrite(ops as never, { ordered: false });
  }

  public async withPendingEvents(limit: number): Promise<StoredPost[]> {
    if (!(limit > 0)) return [];
    const docs = await this.model.find({ 'pending_events.0': { $exists: true } }).sort({ create_at: 1, _id: 1 }).limit(limit).lean<PostDocument[]>();
    return docs.map(fromPostDocument);
  }

  public async list(query: PostQuery): Promise<StoredPost[]> {
    if (!(query.limit > 0)) return [];
    const filter: Filter = { channel_id: query.channelId };
    if (!query.includeDeleted) filter.delete_at = 0;
    if (query.updatedSince !== undefined) filter.update_at = { $gt: query.updatedSince };
    const created: Filter = {};
    if (query.createdBefore !== undefined) created.$lt = query.createdBefore;
    if (query.createdAfter !== undefined) created.$gt = query.createdAfter;
    if (Object.keys(created).length > 0) filter.create_at = created;
    if (query.pinnedOnly) filter.is_pinned = true;
    if (query.rootsOnly) filter.root_id = '';
    const sign = query.order === 'asc' ? 1 : -1;
    const docs = await this.model.find(filter).sort({ create_at: sign, _id: sign }).skip(query.skip).limit(query.limit).lean<PostDocument[]>();
    return docs.map(fromPostDocument);
  }

  /**
   * Every filter here is the `_id` alone (the rest is checked on the document the write returns): the
   * MongoDB-wire emulator the project runs on uses an index only for a filter of exactly that index's fields,
   * so `{ _id, participant_ids: { $exists: true } }` was a scan of the whole posts collection per reply there
   * (ADR 0037's addendum). Whether a root keeps participants never changes once it is stored (nothing adds
   * or removes the field of a stored root without it), so a write by `_id` that follows a read of it is safe.
   * The counters go in one write that returns the kept participants; an author not among them: a second
   * write, `$addToSet` (a thread's later replies by its participants stay one write).
   */
  public async recordReply(rootId: string, at: number, authorId: string): Promise<void> {
    const counted = (await this.model.collection.findOneAndUpdate(byId(rootId), { $inc: { reply_count: 1 }, $max: { last_reply_at: at, update_at: at } } as never, {
      projection: { participant_ids: 1 },
      returnDocument: 'after',
    })) as Pick<PostDocument, 'participant_ids'> | null;
    const kept = counted?.participant_ids;
    if (Array.isArray(kept) && !kept.includes(authorId)) await this.model.collection.updateOne(byId(rootId), { $addToSet: { participant_ids: authorId } } as never);
  }

  /** The count goes down, never below 0 (two deletes at once may take it to -1 for a moment); kept participants are listed again from the live replies (a reply added meanwhile may be missed until the next delete: deletes are rare). */
  public async forgetReply(rootId: string): Promise<void> {
    const root = (await this.model.collection.findOne(byId(rootId), { projection: { channel_id: 1, participant_ids: 1, reply_count: 1 } })) as Pick<PostDocument, 'channel_id' | 'participant_ids' | 'reply_count'> | null;
    if (!root) return;
    if (root.reply_count > 0) {
      const counted = (await this.model.collection.findOneAndUpdate(byId(rootId), { $inc: { reply_count: -1 } } as never, { projection: { reply_count: 1 }, returnDocument: 'after' })) as Pick<PostDocument, 'reply_count'> | null;
      if (counted && counted.reply_count < 0) await this.model.collection.updateOne(byId(rootId), { $max: { reply_count: 0 } } as never);
    }
    if (!Array.isArray(root.participant_ids)) return;
    const authors = await this.replyAuthors(root.channel_id, rootId);
    await this.model.collection.updateOne(byId(rootId), { $set: { participant_ids: authors } } as never);
  }

  public async participants(channelId: string, rootId: string): Promise<string[]> {
    const root = (await this.model.collection.findOne(byId(rootId), { projection: { channel_id: 1, participant_ids: 1 } })) as Pick<PostDocument, 'channel_id' | 'participant_ids'> | null;
    const kept = root?.channel_id === channelId ? root.participant_ids : undefined;
    return kept ?? this.replyAuthors(channelId, rootId);
  }

  public async listReplies(channelId: string, rootId: string): Promise<StoredPost[]> {
    const docs = await this.model.find({ root_id: rootId, channel_id: channelId, delete_at: 0 }).sort({ create_at: 1, _id: 1 }).lean<PostDocument[]>();
    return docs.map(fromPostDocument);
  }

  public async replyAuthors(channelId: string, rootId: string): Promise<string[]> {
    const docs = await this.model
      .find({ root_id: rootId, channel_id: channelId, delete_at: 0 }, { user_id: 1 })
      .sort({ create_at: 1, _id: 1 })
      .lean<{ user_id: string }[]>();
    return [...new Set(docs.map((d) => d.user_id))];
  }

  public async countRepliesAfter(channelId: string, rootId: string, after: number): Promise<number> {
    return this.model.countDocuments({ root_id: rootId, channel_id: channelId, delete_at: 0, create_at: { $gt: after } });
  }

  public async deletePermanently(id: string): Promise<boolean> {
    const result = await this.model.deleteOne({ _id: id });
    return result.deletedCount > 0;
  }
}

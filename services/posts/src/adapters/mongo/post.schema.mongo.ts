import { Schema, type Connection, type Model } from '@switchyard/mongo-kit';
import type { PendingEvent, StoredPost } from '../../domain/entities';
import { searchTermsOf } from '../../domain/search/search-text';
import { modelOn, SCHEMA_OPTIONS } from './mongo-support';

export const POSTS_COLLECTION = 'posts';

/**
 * A stored post: the entity with `id` as `_id`. `props` and `metadata` are client-supplied JSON whose
 * keys may contain `.` or start with `$`, so they are stored as JSON text (never queried) instead of
 * sub-documents. `participants` is always null and not stored. `participant_ids`: a root's thread
 * participants (authors of live replies in order of first reply), kept by the reply counter writes, never
 * part of the entity; absent on replies and on roots stored before they were kept.
 */
export type PostDocument = Omit<StoredPost, 'id' | 'props' | 'metadata' | 'participants'> & { _id: string; props: string; metadata?: string; search_terms?: string[]; participant_ids?: string[] };

export const postSchema = new Schema<PostDocument>(
  {
    _id: { type: String },
    create_at: Number,
    update_at: Number,
    edit_at: Number,
    delete_at: Number,
    is_pinned: Boolean,
    user_id: String,
    channel_id: String,
    root_id: String,
    original_id: String,
    message: String,
    type: String,
    props: String,
    hashtags: String,
    file_ids: [String],
    pending_post_id: String,
    reply_count: Number,
    last_reply_at: Number,
    has_reactions: Boolean,
    metadata: String,
    incoming_hook_id: String,
    pending_events: [Schema.Types.Mixed],
    // post search (docs/adr: post search index): the message's stemmed words and its `#tags`, written with the post.
    search_terms: [String],
    participant_ids: { type: [String], default: undefined },
  },
  SCHEMA_OPTIONS,
);

// list: a channel's posts newest (or oldest) first, paged, and the before/after windows on create_at.
postSchema.index({ channel_id: 1, create_at: -1, _id: -1 });
// list with rootsOnly (the collapsed-threads channel view): a channel's roots newest (or oldest) first, without the
// replies between them. Not partial (FerretDB refuses partialFilterExpression): root_id is an equality key instead.
postSchema.index({ channel_id: 1, root_id: 1, create_at: -1, _id: -1 });
// list with since: a channel's posts updated after a time (deleted ones included).
postSchema.index({ channel_id: 1, update_at: 1 });
// listReplies: a thread's replies oldest first. Not partial (infra.md's portable subset: FerretDB refuses
// partialFilterExpression and the posts service did not start on it); a new key pattern, so a deployment that
// has the earlier partial index on (root_id, create_at, _id) gets this one beside it instead of an options conflict.
postSchema.index({ root_id: 1, create_at: 1 });
// findByPendingPostId: the 30 s pending_post_id dedupe of POST /posts.
postSchema.index({ user_id: 1, pending_post_id: 1, create_at: -1 });
// search: posts having a term (multikey), newest first; the channel, author and date filters are applied to those.
// _id too, so one term's range is already in the search's sort order (create_at, _id): MongoDB reads it newest
// first and stops at the limit instead of sorting every post that has the term.
postSchema.index({ search_terms: 1, create_at: -1, _id: -1 });
// withPendingEvents (the outbox sweep): only posts whose outbox is not empty have entries here.
postSchema.index({ 'pending_events.id': 1 }, { sparse: true });

export function postModel(connection: Connection): Model<PostDocument> {
  return modelOn(connection, 'PostsPost', postSchema, POSTS_COLLECTION);
}

export function toPostDocument(post: StoredPost): PostDocument {
  const { id, props, metadata, participants: _participants, ...rest } = post;
  return {
    _id: id,
    ...rest,
    props: JSON.stringify(props),
    ...(metadata !== undefined ? { metadata: JSON.stringify(metadata) } : {}),
    search_terms: postSearchTerms(post),
    // A root keeps its thread's participants from the start (none yet).
    ...(post.root_id === '' ? { participant_ids: [] } : {}),
  };
}

/** A post's search terms: none for system posts and deleted ones (they are never found). */
export function postSearchTerms(post: Pick<StoredPost, 'message' | 'hashtags' | 'type' | 'delete_at'>): string[] {
  if (post.delete_at !== 0 || post.type.startsWith('system_')) return [];
  return searchTermsOf(post.message, post.hashtags);
}

export function fromPostDocument(doc: PostDocument): StoredPost {
  const { _id, props, metadata, pending_events: pending, search_terms: _terms, participant_ids: _participants, ...rest } = doc as PostDocument & { __v?: unknown };
  delete (rest as { __v?: unknown }).__v;
  return {
    id: _id,
    ...rest,
    props: JSON.parse(props) as Record<string, unknown>,
    participants: null,
    ...(metadata !== undefined && metadata !== null ? { metadata: JSON.parse(metadata) as Record<string, unknown> } : {}),
    pending_events: (pending ?? []) as PendingEvent[],
  };
}

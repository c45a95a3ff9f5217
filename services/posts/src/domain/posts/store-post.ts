import type { PostSource } from '@switchyard/contracts';
import type { Channel, StoredPost } from '../entities';
import { isDuplicateKeyError } from '../errors';
import type { Deps } from '../ports';
import { hashtagsOf } from '../rules/post-rules';
import { countMentions } from '../channels/count-mentions';
import { postMentions } from '../channels/mentioned-members';
import { followOnReply } from '../threads/follow-on-reply';
import { createdEvent } from './post-events';

export interface NewPost {
  readonly id: string;
  readonly channel_id: string;
  readonly user_id: string;
  readonly message: string;
  readonly type: string;
  readonly props: Record<string, unknown>;
  readonly root_id: string;
  readonly file_ids: string[];
  readonly pending_post_id: string;
  readonly create_at: number;
  readonly metadata?: Record<string, unknown>;
}

export function buildStoredPost(post: NewPost, source: PostSource): StoredPost {
  return {
    id: post.id,
    create_at: post.create_at,
    update_at: post.create_at,
    edit_at: 0,
    delete_at: 0,
    is_pinned: false,
    user_id: post.user_id,
    channel_id: post.channel_id,
    root_id: post.root_id,
    original_id: '',
    message: post.message,
    type: post.type,
    props: post.props,
    hashtags: hashtagsOf(post.message),
    file_ids: post.file_ids,
    pending_post_id: post.pending_post_id,
    reply_count: 0,
    last_reply_at: 0,
    participants: null,
    has_reactions: false,
    ...(post.metadata ? { metadata: post.metadata } : {}),
    pending_events: [createdEvent(post.id, post.create_at, source)],
  };
}

/** A stored post and the channel counter write that counts it. */
export interface StoredNewPost {
  readonly post: StoredPost;
  /**
   * Settles once the channel's counters include the post (rejects when that write failed). Marked handled:
   * a caller that does not wait for it (the commands consumer) reports its failure itself.
   */
  readonly counted: Promise<void>;
}

/**
 * Stores a new post with its `post.created` event in its outbox (one write), counts it on its root,
 * hands the outbox to the relay (with the post and its channel, which it then does not read back) and
 * starts counting it on the channel. Returns undefined when the id exists.
 */
export async function storeNewPost(deps: Deps, post: StoredPost, channel: Channel): Promise<StoredNewPost | undefined> {
  try {
    await deps.posts.insert(post);
  } catch (error) {
    if (isDuplicateKeyError(error)) return undefined;
    throw error;
  }
  // Its mentions on the mentioned members, alongside the thread work and before the answer (a channel read
  // next shows them); a failure there loses no post.
  // Whom it mentions is read once, for the counts and the thread's follows.
  const found = postMentions(deps, post, channel);
  found.catch(() => undefined);
  const mentioned = countMentions(deps, post, channel, found).catch(() => undefined);
  // A reply counts on its root first, so its post.created carries the new reply_count.
  if (post.root_id !== '') await deps.posts.recordReply(post.root_id, post.create_at, post.user_id);
  // Its thread's followers (collapsed threads) before the answer, so a list read next shows it; a failure
  // there loses no post.
  if (post.root_id !== '') await followOnReply(deps, post, channel, found).catch(() => undefined);
  const mentions = await mentioned;
  void deps.relay(post, { post, channel, ...(mentions ? { mentions } : {}) });
  const counted = deps.channels.recordPost(post.channel_id, post.create_at, post.root_id === '');
  counted.catch(() => undefined);
  return { post, counted };
}

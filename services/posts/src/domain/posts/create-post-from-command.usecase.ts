import type { CreatePostCommandPayload } from '@switchyard/contracts';
import type { Channel, StoredPost } from '../entities';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { checkCommandTarget, commandPost } from './command-post';
import { checkReplyRoot } from './reply-root';
import { storeNewPost } from './store-post';
import { attachCommandFiles } from '../files/attach-files';

export interface CommandOutcome {
  readonly post: StoredPost;
  /** false when the post id already existed (nothing changed). */
  readonly created: boolean;
  /**
   * A created post's channel counter write, not waited for: the next command goes on meanwhile, so a
   * channel's posts share counter writes (PostCountBatcher). Waiting would guarantee nothing more: a
   * redelivered command finds its post stored and does not count it again either way.
   */
  readonly counted?: Promise<void>;
}

/**
 * A `post.create` command from another service (incoming-hooks, outgoing-dispatch). The producer did
 * the permission checks; this checks the channel exists and is not archived, validates the post,
 * normalises attachments as the REST path does, marks bot authors, keeps the producer's props, and is
 * idempotent by post id.
 */
export async function createPostFromCommand(deps: Deps, payload: CreatePostCommandPayload): Promise<CommandOutcome> {
  let post: StoredPost;
  let channel: Channel;
  try {
    ({ post, channel } = await validCommand(deps, payload));
  } catch (error) {
    // A redelivered command whose post exists is answered with the post, whatever changed since.
    const existing = await alreadyStored(deps, payload.post.id);
    if (existing) return existing;
    throw error;
  }
  await attachCommandFiles(deps, post, payload.post.file_ids, deps.clock.now(), payload.source);
  const stored = await storeNewPost(deps, post, channel);
  if (stored) return { post: stored.post, created: true, counted: stored.counted };
  const raced = await alreadyStored(deps, post.id);
  if (!raced) throw Errors.postNotFound();
  return raced;
}

/** The post of a command already handled (redelivery, producer retry): its unpublished events are relayed again. */
async function alreadyStored(deps: Deps, postId: string): Promise<CommandOutcome | undefined> {
  const existing = await deps.posts.findById(postId);
  if (!existing) return undefined;
  if (existing.pending_events.length > 0) void deps.relay(existing);
  return { post: existing, created: false };
}

/**
 * The post to insert, checked (no read of the post first: the insert's unique id is the idempotency
 * check, and a duplicate is then read back).
 */
async function validCommand(deps: Deps, payload: CreatePostCommandPayload): Promise<{ post: StoredPost; channel: Channel }> {
  const channel = checkCommandTarget(await deps.cachedChannels.cached(payload.post.channel_id), payload.post);
  const [author] = await deps.users.usersByIds([payload.post.user_id]);
  const post = commandPost(payload, channel, author, deps.clock);
  await checkReplyRoot(deps, channel.id, post.root_id);
  return { post, channel };
}

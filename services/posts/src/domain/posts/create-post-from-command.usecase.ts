import type { CreatePostCommandPayload } from '@switchyard/contracts';
import { badRequest } from '@switchyard/errors';
import type { Channel, StoredPost } from '../entities';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { normaliseAttachments } from '../rules/attachments';
import { incomingHookOf, withoutHookKey } from '../rules/hook-origin';
import { checkMessage, checkProps, checkTypeValid } from '../rules/post-rules';
import { checkReplyRoot } from './reply-root';
import { buildStoredPost, storeNewPost } from './store-post';

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
  const input = payload.post;
  const channel = await deps.cachedChannels.cached(input.channel_id);
  if (!channel) throw Errors.channelNotFound();
  if (channel.delete_at !== 0) throw Errors.postToArchived();
  checkTypeValid(input.type);
  checkMessage(input.message);
  const [author] = await deps.users.usersByIds([input.user_id]);
  if (!author) throw badRequest('app.post.create_post.author_missing', 'The post author does not exist.', { detailedError: `user_id=${input.user_id}` });
  const props = normaliseAttachments(withoutHookKey({ ...input.props }));
  const hookId = payload.source === 'incoming_webhook' ? (payload.hook_id ?? incomingHookOf({ props: input.props })) : undefined;
  if (author.isBot) props.from_bot = 'true';
  checkProps(props);
  await checkReplyRoot(deps, channel.id, input.root_id);
  const post = buildStoredPost(
    {
      id: input.id,
      channel_id: channel.id,
      user_id: input.user_id,
      message: input.message,
      type: input.type,
      props,
      root_id: input.root_id,
      file_ids: [],
      pending_post_id: '',
      create_at: input.create_at ?? deps.clock.now(),
      ...(input.priority ? { metadata: { priority: { ...input.priority } } } : {}),
    },
    payload.source,
  );
  if (hookId) post.incoming_hook_id = hookId;
  return { post, channel };
}

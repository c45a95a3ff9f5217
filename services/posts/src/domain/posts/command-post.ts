import type { CreatePostCommandPayload, InternalUser } from '@switchyard/contracts';
import { badRequest } from '@switchyard/errors';
import type { Channel, StoredPost } from '../entities';
import { Errors } from '../errors';
import type { Clock } from '../ports';
import { normaliseAttachments } from '../rules/attachments';
import { incomingHookOf, withoutHookKey } from '../rules/hook-origin';
import { checkMessage, checkProps, checkTypeValid } from '../rules/post-rules';
import { buildStoredPost } from './store-post';

/**
 * The first checks of a `post.create` command, in the reference's order: the channel exists and is not
 * archived, then the post's type and message. Returns the channel.
 */
export function checkCommandTarget(channel: Channel | undefined, input: CreatePostCommandPayload['post']): Channel {
  if (!channel) throw Errors.channelNotFound();
  if (channel.delete_at !== 0) throw Errors.postToArchived();
  checkTypeValid(input.type);
  checkMessage(input.message);
  return channel;
}

/**
 * The post a command stores, once its target is checked: the author must exist; attachments are normalised
 * as the REST path does, bot authors marked, the producer's props kept (its hook key dropped). The reply
 * root is checked apart (it needs a read).
 */
export function commandPost(payload: CreatePostCommandPayload, channel: Channel, author: InternalUser | undefined, clock: Clock): StoredPost {
  const input = payload.post;
  if (!author) throw badRequest('app.post.create_post.author_missing', 'The post author does not exist.', { detailedError: `user_id=${input.user_id}` });
  const props = normaliseAttachments(withoutHookKey({ ...input.props }));
  const hookId = payload.source === 'incoming_webhook' ? (payload.hook_id ?? incomingHookOf({ props: input.props })) : undefined;
  if (author.isBot) props.from_bot = 'true';
  checkProps(props);
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
      create_at: input.create_at ?? clock.now(),
      ...(input.priority ? { metadata: { priority: { ...input.priority } } } : {}),
    },
    payload.source,
  );
  if (hookId) post.incoming_hook_id = hookId;
  return post;
}

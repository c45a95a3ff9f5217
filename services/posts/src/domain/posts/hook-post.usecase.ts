import { notFound, type AppError } from '@switchyard/errors';
import type { StoredPost } from '../entities';
import type { Deps } from '../ports';
import { normaliseAttachments } from '../rules/attachments';
import { incomingHookOf } from '../rules/hook-origin';
import { checkMessage, checkProps, hashtagsOf } from '../rules/post-rules';
import { deletedEvent, updatedEvent } from './post-events';

/** Any post the hook did not make, or a deleted one: the same 404 (README "Hook edits its posts"). */
const hookPostNotFound = (): AppError => notFound('api.webhook.incoming.post_not_found.app_error', 'Unable to find a post this webhook created.');

async function ownPost(deps: Deps, hookId: string, postId: string, channelId: string | undefined): Promise<StoredPost> {
  const post = await deps.posts.findById(postId);
  if (!post || post.delete_at !== 0 || incomingHookOf(post) !== hookId) throw hookPostNotFound();
  // A locked hook only manages its posts in its channel.
  if (channelId !== undefined && post.channel_id !== channelId) throw hookPostNotFound();
  return post;
}

/**
 * `PUT /hooks/{key}/posts/{id}` (through incoming-hooks): the message and the webhook props (attachments,
 * overrides) of a post this hook made are replaced, with the reference's edit rules (sizes, edit_at);
 * `post.updated` goes out (WebSocket post_edited, outgoing post_edited).
 */
export async function hookEditPost(deps: Deps, hookId: string, postId: string, edit: { message: string; props: Record<string, unknown>; channelId?: string }): Promise<StoredPost> {
  const post = await ownPost(deps, hookId, postId, edit.channelId);
  checkMessage(edit.message);
  const props = normaliseAttachments(edit.props);
  checkProps(props);
  const now = deps.clock.now();
  const attachments = Array.isArray(props.attachments) && props.attachments.length > 0;
  const changes = {
    message: edit.message,
    hashtags: hashtagsOf(edit.message),
    props,
    type: attachments ? 'slack_attachment' : post.type === 'slack_attachment' ? '' : post.type,
    update_at: now,
    edit_at: now,
  };
  const updated = await deps.posts.update(post.id, changes, updatedEvent(post.id, now, 'incoming_webhook'));
  if (!updated) throw hookPostNotFound();
  void deps.relay(post);
  return updated;
}

/** `DELETE /hooks/{key}/posts/{id}`: as a user's delete of their post (a root takes its replies), `post.deleted`. */
export async function hookDeletePost(deps: Deps, hookId: string, postId: string, channelId?: string): Promise<void> {
  const post = await ownPost(deps, hookId, postId, channelId);
  const now = deps.clock.now();
  await deps.posts.update(post.id, { delete_at: now, update_at: now, props: { ...post.props, deleteBy: post.user_id } }, deletedEvent(post.id, now, 'incoming_webhook'));
  if (post.root_id !== '') await deps.posts.forgetReply(post.root_id);
  else for (const reply of await deps.posts.listReplies(post.channel_id, post.id)) await deps.posts.update(reply.id, { delete_at: now, update_at: now });
  void deps.relay(post);
}

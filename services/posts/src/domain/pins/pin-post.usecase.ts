import { badRequest, commonErrors } from '@switchyard/errors';
import { hasPermission, Permissions } from '@switchyard/permissions';
import { accessTo, loadChannel } from '../access';
import type { Actor } from '../actor';
import type { Channel, StoredPost } from '../entities';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { isSystemType } from '../rules/post-rules';
import { updatedEvent } from '../posts/post-events';

/**
 * `POST /posts/{id}/pin` and `/unpin` (mattermost-wire-3.md §3.2): read access to the post's channel is
 * enough (any member pins anyone's post); an unknown post is 403 (the permission check runs first), a
 * deleted one 404. `is_pinned` and `update_at` change, `edit_at` does not; `post_edited` follows through
 * the outbox. No edit time limit.
 */
export async function setPinned(deps: Deps, actor: Actor, postId: string, pinned: boolean): Promise<StoredPost> {
  const post = await deps.posts.findById(postId);
  if (!post) throw commonErrors.permissions(actor.userId, Permissions.readChannel);
  const channel = await readableChannel(deps, actor, post.channel_id);
  if (post.delete_at !== 0) throw Errors.postNotFound();
  if (channel.delete_at !== 0) throw badRequest('api.post.patch_post.can_not_update_post_in_deleted.error', 'Can not update a post in a deleted channel.');
  if (isSystemType(post.type)) throw Errors.editSystemPost();
  const now = deps.clock.now();
  const updated = await deps.posts.update(post.id, { is_pinned: pinned, update_at: now }, updatedEvent(post.id, now, 'api'));
  if (!updated) throw Errors.postNotFound();
  void deps.relay(updated);
  return updated;
}

/** The channel if the caller may read it; a missing channel is 403 for those who could not read any (404 for admins). */
export async function readableChannel(deps: Deps, actor: Actor, channelId: string): Promise<Channel> {
  const channel = await deps.channels.findById(channelId);
  if (!channel) {
    if (hasPermission(actor.roles, Permissions.manageSystem)) return loadChannel(deps, channelId);
    throw commonErrors.permissions(actor.userId, Permissions.readChannel);
  }
  await accessTo(deps, actor, channel).requireRead();
  return channel;
}

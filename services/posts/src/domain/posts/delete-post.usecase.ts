import { Permissions } from '@switchyard/permissions';
import { hasPermission } from '@switchyard/permissions';
import { commonErrors } from '@switchyard/errors';
import { accessTo, loadChannel, requireOwnOrOthers } from '../access';
import type { Actor } from '../actor';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { forgetReplyMentions } from '../threads/forget-reply-mentions';
import { deletedEvent } from './post-events';
import { loadPostFor } from './load-post';

/**
 * `DELETE /posts/{id}`: own posts need delete_post, others' delete_others_posts. The post keeps its id
 * with delete_at set and `props.deleteBy`; deleting a root deletes its replies too, deleting a reply lowers
 * its root's reply_count. `permanent=true` needs EnableAPIPostDeletion and manage_system.
 */
export async function deletePost(deps: Deps, actor: Actor, postId: string, permanent: boolean): Promise<void> {
  if (permanent) {
    if (!deps.liveConfig.current().ServiceSettings.EnableAPIPostDeletion) throw Errors.permanentDeleteDisabled();
    if (!hasPermission(actor.roles, Permissions.manageSystem)) throw commonErrors.permissions(actor.userId, Permissions.manageSystem);
  }
  const post = await loadPostFor(deps, actor, postId, Permissions.deleteOthersPosts, permanent);
  const channel = await loadChannel(deps, post.channel_id);
  await requireOwnOrOthers(accessTo(deps, actor, channel), post.user_id === actor.userId, Permissions.deletePost, Permissions.deleteOthersPosts);
  const now = deps.clock.now();
  if (post.delete_at === 0) {
    const props = { ...post.props, deleteBy: actor.userId };
    await deps.posts.update(post.id, { delete_at: now, update_at: now, props }, deletedEvent(post.id, now, 'api'));
    // A reply leaves its root's count; a root takes its replies with it (one event, for the root).
    // Its files go with it (soft-deleted: GET /files/{id} is 404 from now on; the bytes stay, as the reference).
    if (post.file_ids.length > 0) await deps.files.deleteByPost(post.id, now);
    if (post.root_id !== '') {
      await deps.posts.forgetReply(post.root_id);
      // Unread mentions it made in its thread go with it (collapsed threads); a failure loses no delete.
      await forgetReplyMentions(deps, post, channel).catch(() => undefined);
    }
    else {
      for (const reply of await deps.posts.listReplies(post.channel_id, post.id)) {
        await deps.posts.update(reply.id, { delete_at: now, update_at: now });
        if (reply.file_ids.length > 0) await deps.files.deleteByPost(reply.id, now);
      }
    }
    // A permanent delete waits for post.deleted to be published: the outbox goes with the document.
    if (permanent) await deps.relay(post);
    else void deps.relay(post);
  }
  if (permanent) await deps.posts.deletePermanently(post.id);
}

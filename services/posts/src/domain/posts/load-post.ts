import { commonErrors } from '@switchyard/errors';
import { hasPermission, Permissions } from '@switchyard/permissions';
import type { Actor } from '../actor';
import type { StoredPost } from '../entities';
import { Errors } from '../errors';
import type { Deps } from '../ports';

/**
 * The post for a caller: a deleted post is 404; a missing one is 404 for those who could see any post
 * (system `permission`) and 403 for the rest, as the reference's channel-by-post permission check answers.
 */
export async function loadPostFor(deps: Pick<Deps, 'posts'>, actor: Actor, postId: string, permission: string, includeDeleted = false): Promise<StoredPost> {
  const post = await deps.posts.findById(postId);
  if (post && (post.delete_at === 0 || (includeDeleted && hasPermission(actor.roles, Permissions.manageSystem)))) return post;
  // A deleted post still names its channel, so the reference's permission check passes and the read is a 404.
  if (post || hasPermission(actor.roles, permission)) throw Errors.postNotFound();
  throw commonErrors.permissions(actor.userId, permission);
}

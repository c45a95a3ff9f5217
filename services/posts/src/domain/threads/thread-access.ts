import { commonErrors } from '@switchyard/errors';
import { hasPermission, hasTeamPermission, Permissions } from '@switchyard/permissions';
import { accessTo } from '../access';
import type { Actor } from '../actor';
import type { Channel, StoredPost } from '../entities';
import { Errors } from '../errors';
import type { Deps } from '../ports';

/** The reference's permission for reading a thread's channel (SessionHasPermissionToChannelByPost). */
const READ_CHANNEL_CONTENT = 'read_channel_content';

/** Self, or edit_other_users (403), as every collapsed-threads route requires first. */
export function requireSelfOrEditOthers(actor: Actor, userId: string): void {
  if (userId !== actor.userId && !hasPermission(actor.roles, Permissions.editOtherUsers)) throw commonErrors.permissions(actor.userId, Permissions.editOtherUsers);
}

/** view_team on the team (a member, or system roles that grant it), else 403. */
export async function requireViewTeam(deps: Pick<Deps, 'users'>, actor: Actor, teamId: string): Promise<void> {
  if (hasPermission(actor.roles, Permissions.viewTeam)) return;
  const teamRoles = await deps.users.teamRoles(teamId, actor.userId);
  if (!hasTeamPermission(actor.roles, teamRoles, Permissions.viewTeam)) throw commonErrors.permissions(actor.userId, Permissions.viewTeam);
}

/** A thread's root post and its channel. */
export interface ThreadPlace {
  readonly post: StoredPost;
  readonly channel: Channel;
}

/**
 * The caller may read the channel of the post `threadId` (members, or open channels with
 * read_public_channel): else 403, also for a post that does not exist (nobody can read its channel);
 * for a system admin a missing post is 404 app.post.get.app_error.
 */
export async function requireThreadRead(deps: Deps, actor: Actor, threadId: string): Promise<ThreadPlace> {
  const post = await deps.posts.findById(threadId);
  const channel = post ? await deps.channels.findById(post.channel_id) : undefined;
  if (!post || !channel) {
    if (hasPermission(actor.roles, Permissions.manageSystem)) throw Errors.postNotFound();
    throw commonErrors.permissions(actor.userId, READ_CHANNEL_CONTENT);
  }
  if (!(await accessTo(deps, actor, channel).canRead())) throw commonErrors.permissions(actor.userId, READ_CHANNEL_CONTENT);
  return { post, channel };
}

/** The membership key of a thread for a user. */
export function membershipKey(place: ThreadPlace, userId: string): { post_id: string; user_id: string; channel_id: string; team_id: string } {
  return { post_id: place.post.id, user_id: userId, channel_id: place.channel.id, team_id: place.channel.team_id };
}

import type { InternalChannel } from '@switchyard/contracts';
import { hasPermission, Permissions } from '@switchyard/permissions';
import type { Actor } from '../hooks/hook-access';
import type { Deps } from '../ports';

/**
 * Whether the user may post in the channel, as posts decides it: create_post from the system roles, the
 * channel member's roles (private channels and DMs: members only) or the team roles; in open channels
 * also create_post_public from the system or team roles.
 */
export async function canPostIn(deps: Pick<Deps, 'platform'>, actor: Pick<Actor, 'userId' | 'roles'>, channel: InternalChannel): Promise<boolean> {
  if (hasPermission(actor.roles, Permissions.createPost)) return true;
  const channelRoles = await deps.platform.channelRoles(channel.id, actor.userId);
  if (channelRoles !== undefined && hasPermission(channelRoles, Permissions.createPost)) return true;
  if (channel.team_id === '') return false;
  const teamRoles = await deps.platform.teamRoles(channel.team_id, actor.userId);
  if (hasPermission(teamRoles, Permissions.createPost)) return true;
  return channel.type === 'O' && (hasPermission(actor.roles, Permissions.createPostPublic) || hasPermission(teamRoles, Permissions.createPostPublic));
}

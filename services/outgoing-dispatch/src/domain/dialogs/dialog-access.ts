import { isValidId } from '@switchyard/ids';
import { hasPermission, hasTeamPermission, Permissions } from '@switchyard/permissions';
import type { Actor } from '../hooks/hook-access';
import type { Deps } from '../ports';

/** read_channel: a member of the channel, anyone in the team for an open channel, or a system role that has it. */
export async function canReadChannel(deps: Pick<Deps, 'platform'>, actor: Actor, channelId: string): Promise<boolean> {
  if (!isValidId(channelId)) return false;
  const channel = await deps.platform.channel(channelId);
  if (!channel) return false;
  if (hasPermission(actor.roles, Permissions.readChannel)) return true;
  if ((await deps.platform.channelRoles(channel.id, actor.userId)) !== undefined) return true;
  if (channel.type !== 'O' || channel.team_id === '') return false;
  return hasTeamPermission(actor.roles, await deps.platform.teamRoles(channel.team_id, actor.userId), Permissions.readPublicChannel);
}

/** view_team: a member of the team or a system role that has it; an empty team id never passes (as the reference). */
export async function canViewTeam(deps: Pick<Deps, 'platform'>, actor: Actor, teamId: string): Promise<boolean> {
  if (!isValidId(teamId)) return false;
  return hasTeamPermission(actor.roles, await deps.platform.teamRoles(teamId, actor.userId), Permissions.viewTeam);
}

import { commonErrors } from '@switchyard/errors';
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

/**
 * The team of a dialog request as the reference derives it since 11.10: the channel's team (`""` for
 * direct and group channels), whatever the client sent. The caller must be able to read the channel and,
 * when there is a team, view it (403 permissions otherwise).
 */
export async function dialogTeamOf(deps: Pick<Deps, 'platform'>, actor: Actor, channelId: string): Promise<string> {
  if (!(await canReadChannel(deps, actor, channelId))) throw commonErrors.permissions(actor.userId, Permissions.readChannel);
  const teamId = (await deps.platform.channel(channelId))?.team_id ?? '';
  if (teamId !== '' && !(await canViewTeam(deps, actor, teamId))) throw commonErrors.permissions(actor.userId, Permissions.viewTeam);
  return teamId;
}

/** view_team: a member of the team or a system role that has it; an empty team id never passes (as the reference). */
export async function canViewTeam(deps: Pick<Deps, 'platform'>, actor: Actor, teamId: string): Promise<boolean> {
  if (!isValidId(teamId)) return false;
  return hasTeamPermission(actor.roles, await deps.platform.teamRoles(teamId, actor.userId), Permissions.viewTeam);
}

import { commonErrors } from '@switchyard/errors';
import { hasPermission, Permissions } from '@switchyard/permissions';
import type { Actor } from '../actor';
import type { Channel } from '../entities';
import type { Deps, Page } from '../ports';

/** `GET /teams/{team_id}/channels`: the team's open, unarchived channels (list_team_channels). */
export async function listTeamChannels(deps: Deps, actor: Actor, teamId: string, page: Page): Promise<Channel[]> {
  if (!hasPermission(actor.roles, Permissions.listTeamChannels)) {
    const teamRoles = (await deps.users.teamRoles(teamId, actor.userId)) ?? '';
    if (!hasPermission(teamRoles, Permissions.listTeamChannels)) throw commonErrors.permissions(actor.userId, Permissions.listTeamChannels);
  }
  return deps.channels.listByTeam(teamId, ['O'], false, page);
}

import { commonErrors } from '@switchyard/errors';
import { Permissions } from '@switchyard/permissions';
import { can, type Actor } from '../authorization';
import type { Team } from '../entities';
import type { Deps } from '../ports';
import { sanitizeTeamFor } from './team-access';

/** `GET /users/{id}/teams`: your teams, or anyone's with sysconsole_read_user_management_users. */
export async function listUserTeams(deps: Deps, actor: Actor, userId: string): Promise<Team[]> {
  if (userId !== actor.userId && !can(actor, Permissions.sysconsoleReadUserManagementUsers)) {
    throw commonErrors.permissions(actor.userId, Permissions.sysconsoleReadUserManagementUsers);
  }
  const memberships = await deps.members.listByUser(userId);
  const teams = await deps.teams.findByIds(memberships.map((m) => m.teamId));
  const live = teams.filter((t) => t.deleteAt === 0);
  return Promise.all(live.map((team) => sanitizeTeamFor(deps, actor, team)));
}

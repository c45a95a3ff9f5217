import { Permissions } from '@switchyard/permissions';
import { requireOnTeam, type Actor } from '../authorization';
import type { TeamMember } from '../entities';
import type { Deps, Page } from '../ports';

/** `GET /teams/{team_id}/members` (view_team): active members, paged. */
export async function listTeamMembers(deps: Deps, actor: Actor, teamId: string, page: Page): Promise<TeamMember[]> {
  await requireOnTeam(deps, actor, teamId, Permissions.viewTeam);
  return deps.members.listByTeam(teamId, page);
}

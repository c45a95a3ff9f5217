import type { Actor } from '../authorization';
import type { Team } from '../entities';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { requireTeamVisible, sanitizeTeamFor } from './team-access';

/** `GET /teams/{id}`: 404 if missing; a team that is not open with open invites needs view_team. */
export async function getTeam(deps: Deps, actor: Actor, teamId: string): Promise<Team> {
  const team = await deps.teams.findById(teamId);
  if (!team) throw Errors.teamNotFound();
  await requireTeamVisible(deps, actor, team);
  return sanitizeTeamFor(deps, actor, team);
}

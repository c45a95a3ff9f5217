import type { Actor } from '../authorization';
import type { Team } from '../entities';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { requireTeamVisible, sanitizeTeamFor } from './team-access';

/** `GET /teams/name/{name}` (lower-cased): 404 get_by_name.missing; otherwise as GET /teams/{id}. */
export async function getTeamByName(deps: Deps, actor: Actor, name: string): Promise<Team> {
  const team = await deps.teams.findByName(name.toLowerCase());
  if (!team) throw Errors.teamByNameNotFound();
  await requireTeamVisible(deps, actor, team);
  return sanitizeTeamFor(deps, actor, team);
}

import type { Team } from '../entities';
import { Errors } from '../errors';
import type { Deps } from '../ports';

/**
 * A team for internal callers (posts): by id (404 get.find) or by lower-cased name (404 get_by_name.missing),
 * deleted teams included. No visibility check: internal callers are trusted; the public routes check view_team.
 */
export async function getInternalTeam(deps: Deps, lookup: { readonly id: string } | { readonly name: string }): Promise<Team> {
  if ('id' in lookup) {
    const team = await deps.teams.findById(lookup.id);
    if (!team) throw Errors.teamNotFound();
    return team;
  }
  const team = await deps.teams.findByName(lookup.name.toLowerCase());
  if (!team) throw Errors.teamByNameNotFound();
  return team;
}

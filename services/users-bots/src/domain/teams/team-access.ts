import { Permissions } from '@switchyard/permissions';
import { canOnTeam, requireOnTeam, type Actor } from '../authorization';
import type { Team } from '../entities';
import type { Deps } from '../ports';

/** Open teams that allow open invites are visible to everyone; others need view_team. */
export async function requireTeamVisible(deps: Deps, actor: Actor, team: Team): Promise<void> {
  if (team.type === 'O' && team.allowOpenInvite) return;
  await requireOnTeam(deps, actor, team.id, Permissions.viewTeam);
}

/** `SanitizeTeam`: without manage_team on the team, its email and invite id are hidden. */
export async function sanitizeTeamFor(deps: Deps, actor: Actor, team: Team): Promise<Team> {
  if (await canOnTeam(deps, actor, team.id, Permissions.manageTeam)) return team;
  return { ...team, email: '', inviteId: '' };
}

import type { TeamMember } from '../entities';
import { Errors } from '../errors';
import type { Deps } from '../ports';

/** One active membership, or 404 get_member.missing. No permission check here: internal callers are trusted, the public route checks view_team first. */
export async function getTeamMember(deps: Deps, teamId: string, userId: string): Promise<TeamMember> {
  const member = await deps.members.find(teamId, userId);
  if (!member || member.deleteAt > 0) throw Errors.teamMemberNotFound();
  return member;
}

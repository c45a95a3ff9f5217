import { commonErrors } from '@switchyard/errors';
import { Permissions } from '@switchyard/permissions';
import { can, type Actor } from '../authorization';
import type { TeamMember } from '../entities';
import type { Deps } from '../ports';

/** `GET /users/{id}/teams/members`: your memberships, or anyone's with edit_other_users. */
export async function listUserTeamMembers(deps: Deps, actor: Actor, userId: string): Promise<TeamMember[]> {
  if (userId !== actor.userId && !can(actor, Permissions.editOtherUsers)) {
    throw commonErrors.permissions(actor.userId, Permissions.editOtherUsers);
  }
  return deps.members.listByUser(userId);
}

import { commonErrors } from '@switchyard/errors';
import { Permissions } from '@switchyard/permissions';
import { can, type Actor } from '../authorization';
import type { Session } from '../entities';
import type { Deps } from '../ports';

/** `GET /users/{id}/sessions`: your own, or anyone's with edit_other_users. Newest first. */
export async function listSessions(deps: Deps, actor: Actor, userId: string): Promise<Session[]> {
  if (userId !== actor.userId && !can(actor, Permissions.editOtherUsers)) {
    throw commonErrors.permissions(actor.userId, Permissions.editOtherUsers);
  }
  const sessions = await deps.sessions.listByUser(userId);
  return sessions.sort((a, b) => b.createAt - a.createAt);
}

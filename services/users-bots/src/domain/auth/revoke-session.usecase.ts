import { commonErrors } from '@switchyard/errors';
import { Permissions } from '@switchyard/permissions';
import { can, type Actor } from '../authorization';
import { Errors } from '../errors';
import type { Deps } from '../ports';

/**
 * `POST /users/{id}/sessions/revoke {session_id}`: your own, or anyone's with edit_other_users. A
 * session of another user than the URL's is 400 invalid user_id, as the reference.
 */
export async function revokeSession(deps: Deps, actor: Actor, userId: string, sessionId: string): Promise<void> {
  if (userId !== actor.userId && !can(actor, Permissions.editOtherUsers)) {
    throw commonErrors.permissions(actor.userId, Permissions.editOtherUsers);
  }
  const session = await deps.sessions.findById(sessionId);
  if (!session) throw Errors.sessionNotFound();
  if (session.userId !== userId) throw commonErrors.invalidUrlParam('user_id');
  await deps.sessions.deleteById(session.id);
  await deps.events.users('session.revoked', { userId, isBot: session.isBot, sessionIds: [session.id] });
}

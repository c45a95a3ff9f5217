import type { Actor } from '../authorization';
import type { Deps } from '../ports';

/** `POST /users/logout`: revokes the caller's current session when there is one (no session required). */
export async function logout(deps: Deps, actor: Actor | undefined): Promise<void> {
  if (!actor || actor.sessionId === '') return;
  const session = await deps.sessions.findById(actor.sessionId);
  if (!session || session.userId !== actor.userId) return;
  await deps.sessions.deleteById(session.id);
  await deps.events.users('session.revoked', { userId: actor.userId, isBot: actor.isBot, sessionIds: [session.id] });
}

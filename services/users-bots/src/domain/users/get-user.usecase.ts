import { Permissions } from '@switchyard/permissions';
import { requirePermission, type Actor } from '../authorization';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { viewOf, type UserView } from '../views';

/** `GET /users/{id}`: yourself always; others need view_members (403), then 404 if missing. */
export async function getUser(deps: Deps, actor: Actor, userId: string): Promise<UserView> {
  if (userId !== actor.userId) requirePermission(actor, Permissions.viewMembers);
  const user = await deps.cachedUsers.cached(userId);
  if (!user) throw Errors.userNotFound();
  return viewOf(deps, user);
}

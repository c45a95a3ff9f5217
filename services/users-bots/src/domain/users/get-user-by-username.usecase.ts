import { Permissions } from '@switchyard/permissions';
import { requirePermission, type Actor } from '../authorization';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { viewOf, type UserView } from '../views';

/** `GET /users/username/{username}` (lower-cased). */
export async function getUserByUsername(deps: Deps, actor: Actor, username: string): Promise<UserView> {
  const user = await deps.users.findByUsername(username.toLowerCase());
  if (!user) {
    requirePermission(actor, Permissions.viewMembers);
    throw Errors.usernameNotFound();
  }
  if (user.id !== actor.userId) requirePermission(actor, Permissions.viewMembers);
  return viewOf(deps, user);
}

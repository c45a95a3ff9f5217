import { forbidden } from '@switchyard/errors';
import { Permissions } from '@switchyard/permissions';
import { isAdmin, requirePermission, type Actor } from '../authorization';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { viewOf, type UserView } from '../views';

/**
 * `GET /users/email/{email}` (mattermost-wire-3.md §3.7): with e-mail addresses hidden only system admins may
 * look one up (checked before the lookup, so existence never leaks); others need view_members.
 */
export async function getUserByEmail(deps: Deps, actor: Actor, email: string): Promise<UserView> {
  if (!deps.liveConfig.current().PrivacySettings.ShowEmailAddress && !isAdmin(actor)) {
    throw forbidden('api.user.get_user_by_email.permissions.app_error', 'Unable to get user by email.');
  }
  const user = await deps.users.findByEmail(email);
  if (!user) {
    requirePermission(actor, Permissions.viewMembers);
    throw Errors.userNotFound();
  }
  if (user.id !== actor.userId) requirePermission(actor, Permissions.viewMembers);
  return viewOf(deps, user);
}

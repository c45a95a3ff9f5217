import { isSystemAdmin, Permissions } from '@switchyard/permissions';
import { can, requirePermission, type Actor } from '../authorization';
import { isSystemOwned } from '../entities';
import { Errors } from '../errors';
import { activateUser, deactivateUser } from '../lifecycle';
import type { Deps } from '../ports';

/**
 * `PUT /users/{id}/active`: sysconsole_write_user_management_users unless deactivating yourself (403
 * update_active.permissions); self-deactivation needs EnableUserDeactivation (401); a system admin
 * target needs manage_system.
 */
export async function updateUserActive(deps: Deps, actor: Actor, userId: string, active: boolean): Promise<void> {
  const selfDeactivate = !active && userId === actor.userId;
  if (!selfDeactivate && !can(actor, Permissions.sysconsoleWriteUserManagementUsers)) throw Errors.updateActivePermissions();
  if (selfDeactivate && !deps.liveConfig.current().TeamSettings.EnableUserDeactivation && !can(actor, Permissions.manageSystem)) {
    throw Errors.deactivationDisabled();
  }
  const user = await deps.users.findById(userId);
  if (!user) throw Errors.userNotFound();
  if (isSystemAdmin(user.roles)) requirePermission(actor, Permissions.manageSystem);
  if (user.isBot && !active) {
    const bot = await deps.bots.findById(user.id);
    if (bot && isSystemOwned(bot)) throw Errors.systemOwnedBot();
  }
  if (active) await activateUser(deps, user);
  else await deactivateUser(deps, user);
}

import { commonErrors } from '@switchyard/errors';
import { isSystemAdmin, Permissions } from '@switchyard/permissions';
import { can, requirePermission, type Actor } from '../authorization';
import { isSystemOwned } from '../entities';
import { Errors } from '../errors';
import { deactivateUser } from '../lifecycle';
import type { Deps } from '../ports';

/**
 * `DELETE /users/{id}`: soft deactivation (or, with `permanent` and EnableAPIUserDeletion, removal).
 * Another user needs edit_other_users; yourself needs EnableUserDeactivation or manage_system (401);
 * a system admin target needs manage_system.
 */
export async function deleteUser(deps: Deps, actor: Actor, userId: string, options: { permanent: boolean }): Promise<void> {
  const self = userId === actor.userId;
  if (!self && !can(actor, Permissions.editOtherUsers)) throw commonErrors.permissions(actor.userId, Permissions.editOtherUsers);
  const config = deps.liveConfig.current();
  if (self && !config.TeamSettings.EnableUserDeactivation && !can(actor, Permissions.manageSystem)) throw Errors.deactivationDisabled();
  const user = await deps.users.findById(userId);
  if (!user) throw Errors.userNotFound();
  if (isSystemAdmin(user.roles)) requirePermission(actor, Permissions.manageSystem);
  if (user.isBot) {
    const bot = await deps.bots.findById(user.id);
    if (bot && isSystemOwned(bot)) throw Errors.systemOwnedBot();
  }
  if (options.permanent) {
    if (!config.ServiceSettings.EnableAPIUserDeletion) throw Errors.permanentDeleteDisabled();
    requirePermission(actor, Permissions.manageSystem);
    await deactivateUser(deps, user);
    await deps.tokens.deleteByUser(user.id);
    await deps.members.deleteByUser(user.id);
    if (user.isBot) await deps.bots.delete(user.id);
    await deps.users.delete(user.id);
    return;
  }
  await deactivateUser(deps, user);
}

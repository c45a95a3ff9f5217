import { unauthorized } from '@switchyard/errors';
import { isSystemAdmin, Permissions } from '@switchyard/permissions';
import { can, type Actor } from '../authorization';
import type { User } from '../entities';
import type { Deps } from '../ports';

/**
 * The newest reference's SessionHasPermissionToUserOrBot (patchUser, updateUser): a bot is changed only by whoever may manage
 * it (its owner with manage_bots, anyone else with manage_others_bots; the bot does not own itself, so its own token may
 * not); any other user by manage_system, themself, or edit_other_users when they are not a system admin.
 */
export async function mayEditUser(deps: Pick<Deps, 'bots'>, actor: Actor, userId: string, target: User | undefined): Promise<boolean> {
  const bot = await deps.bots.findById(userId);
  if (bot) return can(actor, bot.ownerId === actor.userId ? Permissions.manageBots : Permissions.manageOthersBots);
  if (can(actor, Permissions.manageSystem) || actor.userId === userId) return true;
  return can(actor, Permissions.editOtherUsers) && target !== undefined && !isSystemAdmin(target.roles);
}

/**
 * DoubleCheckPassword: takes one of the MaximumLoginAttempts first (401 too_many when none is left), a wrong password is a
 * 401 `check_user_password.invalid`, a right one gives the attempts back.
 */
export async function doubleCheckPassword(deps: Pick<Deps, 'users' | 'passwords' | 'liveConfig'>, user: User, password: string): Promise<void> {
  const limit = deps.liveConfig.current().ServiceSettings.MaximumLoginAttempts;
  if (!(await deps.users.reserveLoginAttempt(user.id, limit))) {
    throw unauthorized('api.user.check_user_login_attempts.too_many.app_error', 'Your account is locked because of too many failed password attempts. Please reset your password.');
  }
  if (user.passwordHash === '' || !(await deps.passwords.verify(password, user.passwordHash))) {
    throw unauthorized('api.user.check_user_password.invalid.app_error', 'Login failed because of invalid password', { detailedError: `user_id=${user.id}` });
  }
  await deps.users.update(user.id, { failedAttempts: 0 });
}

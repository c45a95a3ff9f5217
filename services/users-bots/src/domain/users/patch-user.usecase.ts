import { commonErrors, unauthorized } from '@switchyard/errors';
import { isSystemAdmin, Permissions } from '@switchyard/permissions';
import { can, type Actor } from '../authorization';
import type { User, UserChanges } from '../entities';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { assertValidEmail, assertValidUsername } from '../rules/user-rules';
import { assertValidPatchedProfile, patchedNotifyProps } from '../rules/user-patch-rules';
import { viewOf, type UserView } from '../views';
import { duplicateUserError } from './create-user.usecase';

/** The reference's UserPatch: every field optional; maps replace the stored ones whole. */
export interface UserPatchInput {
  readonly username?: string;
  /** Only checked: the caller's own password, needed to change their own email. */
  readonly password?: string;
  readonly nickname?: string;
  readonly firstName?: string;
  readonly lastName?: string;
  readonly position?: string;
  readonly email?: string;
  readonly props?: Readonly<Record<string, string>>;
  readonly notifyProps?: Readonly<Record<string, string>>;
  readonly locale?: string;
  readonly timezone?: Readonly<Record<string, string>>;
}

/**
 * The newest reference's SessionHasPermissionToUserOrBot (patchUser): a bot is changed only by whoever may manage it (its owner
 * with manage_bots, anyone else with manage_others_bots; the bot itself does not own itself, so its own token may not); any
 * other user by manage_system, themself, or edit_other_users when they are not a system admin (SessionHasPermissionToUser).
 */
async function mayEditUser(deps: Deps, actor: Actor, userId: string, target: User | undefined): Promise<boolean> {
  const bot = await deps.bots.findById(userId);
  if (bot) return can(actor, bot.ownerId === actor.userId ? Permissions.manageBots : Permissions.manageOthersBots);
  if (can(actor, Permissions.manageSystem) || actor.userId === userId) return true;
  return can(actor, Permissions.editOtherUsers) && target !== undefined && !isSystemAdmin(target.roles);
}

/**
 * DoubleCheckPassword: takes one of the MaximumLoginAttempts first (401 too_many when none is left), a wrong password is a
 * 401 `check_user_password.invalid`, a right one gives the attempts back.
 */
async function doubleCheckPassword(deps: Deps, user: User, password: string): Promise<void> {
  const limit = deps.liveConfig.current().ServiceSettings.MaximumLoginAttempts;
  if (!(await deps.users.reserveLoginAttempt(user.id, limit))) {
    throw unauthorized('api.user.check_user_login_attempts.too_many.app_error', 'Your account is locked because of too many failed password attempts. Please reset your password.');
  }
  if (user.passwordHash === '' || !(await deps.passwords.verify(password, user.passwordHash))) {
    throw unauthorized('api.user.check_user_password.invalid.app_error', 'Login failed because of invalid password', { detailedError: `user_id=${user.id}` });
  }
  await deps.users.update(user.id, { failedAttempts: 0 });
}

/** The patch applied as the reference's User.Patch + PreUpdate: names and email lower-cased, notify props cleaned up. */
function changesOf(patch: UserPatchInput): UserChanges {
  return {
    ...(patch.username !== undefined ? { username: patch.username.toLowerCase() } : {}),
    ...(patch.nickname !== undefined ? { nickname: patch.nickname } : {}),
    ...(patch.firstName !== undefined ? { firstName: patch.firstName } : {}),
    ...(patch.lastName !== undefined ? { lastName: patch.lastName } : {}),
    ...(patch.position !== undefined ? { position: patch.position } : {}),
    ...(patch.email !== undefined ? { email: patch.email.toLowerCase() } : {}),
    ...(patch.props !== undefined ? { props: { ...patch.props } } : {}),
    ...(patch.notifyProps !== undefined ? { notifyProps: patchedNotifyProps(patch.notifyProps) } : {}),
    ...(patch.locale !== undefined ? { locale: patch.locale } : {}),
    ...(patch.timezone !== undefined ? { timezone: { ...patch.timezone } } : {}),
  };
}

/**
 * `PUT /users/{user_id}/patch` as the reference's patchUser + PatchUser + UpdateUser: who may (mayEditUser, 403
 * edit_other_users; a system admin target needs manage_system), a missing user is 400 `user_id`, changing one's own email
 * needs one's password; then the reference's User.IsValid on the patched user (`model.user.is_valid.<field>.app_error`) and
 * the unique username and email (400 `app.user.save.*_exists`). `user.updated` goes out (realtime's `user_updated`; the
 * gateway's, users-bots' and posts' caches of the user, mention settings included, drop it) before the answer.
 */
export async function patchUser(deps: Deps, actor: Actor, userId: string, patch: UserPatchInput): Promise<UserView> {
  const target = await deps.users.findById(userId);
  if (!(await mayEditUser(deps, actor, userId, target))) throw commonErrors.permissions(actor.userId, Permissions.editOtherUsers);
  if (!target) throw commonErrors.invalidBodyParam('user_id');
  if (isSystemAdmin(target.roles) && !can(actor, Permissions.manageSystem)) throw commonErrors.permissions(actor.userId, Permissions.manageSystem);
  if (patch.email !== undefined && patch.email !== target.email && actor.userId === userId) {
    if (patch.password === undefined) throw commonErrors.invalidBodyParam('password');
    await doubleCheckPassword(deps, target, patch.password);
  }
  const changes = changesOf(patch);
  const patched: User = { ...target, ...changes };
  assertValidUsername(patched.username);
  assertValidEmail(patched.email);
  assertValidPatchedProfile(patched);
  if (patched.username !== target.username) {
    const holder = await deps.users.findByUsername(patched.username);
    if (holder && holder.id !== userId) throw Errors.usernameExists();
  }
  if (patched.email !== target.email) {
    const holder = await deps.users.findByEmail(patched.email);
    if (holder && holder.id !== userId) throw Errors.emailExists();
  }
  let updated: User | undefined;
  try {
    updated = await deps.users.update(userId, { ...changes, updateAt: deps.clock.now() });
  } catch (error) {
    throw duplicateUserError(error);
  }
  if (!updated) throw commonErrors.invalidBodyParam('user_id');
  await deps.events.users('user.updated', { userId, username: updated.username, isBot: updated.isBot });
  return viewOf(deps, updated);
}

import { commonErrors } from '@switchyard/errors';
import { isSystemAdmin, Permissions } from '@switchyard/permissions';
import { can, type Actor } from '../authorization';
import type { UserChanges } from '../entities';
import type { Deps } from '../ports';
import { patchedNotifyProps } from '../rules/user-patch-rules';
import type { UserView } from '../views';
import { saveUserChanges } from './save-user-changes';
import { doubleCheckPassword, mayEditUser } from './user-edit-access';

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

/** The patch applied as the reference's User.Patch + PreUpdate: username and email lower-cased, notify props cleaned up. */
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
 * `PUT /users/{user_id}/patch` as the reference's patchUser + PatchUser: who may (mayEditUser, 403 edit_other_users; a system
 * admin target needs manage_system), a missing user is 400 `user_id`, changing one's own email needs one's password (its
 * errors as DoubleCheckPassword answers them); then saveUserChanges (validation, uniqueness, `user.updated`).
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
  const view = await saveUserChanges(deps, target, changesOf(patch));
  if (!view) throw commonErrors.invalidBodyParam('user_id');
  return view;
}

import { badRequest, commonErrors } from '@switchyard/errors';
import { isSystemAdmin, Permissions } from '@switchyard/permissions';
import { can, type Actor } from '../authorization';
import type { UserChanges } from '../entities';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { patchedNotifyProps } from '../rules/user-patch-rules';
import type { UserView } from '../views';
import { saveUserChanges } from './save-user-changes';
import { doubleCheckPassword, mayEditUser } from './user-edit-access';

/** The User body of `PUT /users/{user_id}` as the reference decodes it: absent or null strings are '', absent maps undefined. */
export interface UserUpdateInput {
  readonly id: string;
  readonly username: string;
  readonly password: string;
  readonly nickname: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly position: string;
  readonly email: string;
  readonly locale: string;
  readonly props?: Readonly<Record<string, string>>;
  readonly notifyProps?: Readonly<Record<string, string>>;
  readonly timezone?: Readonly<Record<string, string>>;
}

/**
 * The reference's store Update keeps what the caller may not set here (create time, password and auth, email verification,
 * failed attempts, MFA, roles, deactivation) and takes every profile field from the body, an absent one as empty: an absent
 * username or email fails validation, absent notify props are the defaults (PreUpdate).
 */
function changesOf(input: UserUpdateInput): UserChanges {
  return {
    username: input.username.toLowerCase(),
    nickname: input.nickname,
    firstName: input.firstName,
    lastName: input.lastName,
    position: input.position,
    email: input.email.toLowerCase(),
    locale: input.locale,
    props: { ...(input.props ?? {}) },
    notifyProps: patchedNotifyProps(input.notifyProps ?? {}),
    // The reference stores the body's map as it is: none (absent or null) is a nil map, answered as `"timezone": null`.
    timezone: input.timezone ? { ...input.timezone } : null,
  };
}

/**
 * `PUT /users/{user_id}` as the reference's updateUser + UpdateUserAsUser: the body's `id` must be the path's (400 `user_id`),
 * who may as for the patch (mayEditUser: 403 edit_other_users), an unknown user is 404 missing_account, a system admin target
 * needs manage_system, and changing one's own email needs one's password (any failure there is 400 invalid `password`); then
 * saveUserChanges.
 */
export async function updateUser(deps: Deps, actor: Actor, userId: string, input: UserUpdateInput): Promise<UserView> {
  if (input.id !== userId) throw commonErrors.invalidBodyParam('user_id');
  const target = await deps.users.findById(userId);
  if (!(await mayEditUser(deps, actor, userId, target))) throw commonErrors.permissions(actor.userId, Permissions.editOtherUsers);
  if (!target) throw Errors.userNotFound();
  if (isSystemAdmin(target.roles) && !can(actor, Permissions.manageSystem)) throw commonErrors.permissions(actor.userId, Permissions.manageSystem);
  if (input.email !== '' && input.email !== target.email && actor.userId === userId) {
    try {
      await doubleCheckPassword(deps, target, input.password);
    } catch {
      throw commonErrors.invalidBodyParam('password');
    }
  }
  const view = await saveUserChanges(deps, target, changesOf(input));
  if (!view) throw badRequest('app.user.update.find.app_error', 'Unable to find the existing account to update.');
  return view;
}

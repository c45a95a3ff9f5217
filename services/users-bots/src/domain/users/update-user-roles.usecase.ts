import { commonErrors } from '@switchyard/errors';
import { ASSIGNABLE_SYSTEM_ROLES, Permissions, splitRoles } from '@switchyard/permissions';
import { requirePermission, type Actor } from '../authorization';
import { Errors } from '../errors';
import type { Deps } from '../ports';

const ROLE_NAME = /^[a-z0-9_]{1,64}$/;

/**
 * `PUT /users/{id}/roles {roles}`, in the reference's order (api4/user.go updateUserRoles, app
 * UpdateUserRoles): malformed strings and a lone `system_admin` are 400 invalid roles (`IsValidUserRoles`,
 * checked before any permission); then manage_roles (403); then an unknown user is **400** with the
 * user lookup's id (the reference turns GetUser's 404 into 400); then a name outside the assignable system
 * roles is 400 role_not_found (the reference accepts any role its store knows, team and channel roles
 * included, as system roles; this product refuses those on purpose).
 */
export async function updateUserRoles(deps: Deps, actor: Actor, userId: string, roles: string): Promise<void> {
  const names = splitRoles(roles);
  if (names.some((r) => !ROLE_NAME.test(r)) || (names.length === 1 && names[0] === 'system_admin')) {
    throw commonErrors.invalidBodyParam('roles');
  }
  requirePermission(actor, Permissions.manageRoles);
  const user = await deps.users.findById(userId);
  if (!user) throw Errors.rolesUserNotFound();
  const unknown = names.find((r) => !ASSIGNABLE_SYSTEM_ROLES.includes(r));
  if (unknown !== undefined) throw Errors.roleNotFound(unknown);
  const normalised = [...new Set(names)].join(' ');
  await deps.users.update(userId, { roles: normalised, updateAt: deps.clock.now() });
  await deps.events.users('user.roles_updated', { userId, username: user.username, isBot: user.isBot });
}

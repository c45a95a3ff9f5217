import { commonErrors } from '@switchyard/errors';
import { ASSIGNABLE_SYSTEM_ROLES, Permissions, splitRoles } from '@switchyard/permissions';
import { requirePermission, type Actor } from '../authorization';
import { Errors } from '../errors';
import type { Deps } from '../ports';

const ROLE_NAME = /^[a-z0-9_]{1,64}$/;

/**
 * `PUT /users/{id}/roles {roles}` (manage_system). Malformed strings and a lone `system_admin` are 400
 * invalid roles (as `IsValidUserRoles`); names outside the assignable system roles are 400 role_not_found.
 */
export async function updateUserRoles(deps: Deps, actor: Actor, userId: string, roles: string): Promise<void> {
  requirePermission(actor, Permissions.manageSystem);
  const names = splitRoles(roles);
  if (names.some((r) => !ROLE_NAME.test(r)) || (names.length === 1 && names[0] === 'system_admin')) {
    throw commonErrors.invalidBodyParam('roles');
  }
  const unknown = names.find((r) => !ASSIGNABLE_SYSTEM_ROLES.includes(r));
  if (unknown !== undefined) throw Errors.roleNotFound(unknown);
  const user = await deps.users.findById(userId);
  if (!user) throw Errors.userNotFound();
  const normalised = [...new Set(names)].join(' ');
  await deps.users.update(userId, { roles: normalised, updateAt: deps.clock.now() });
  await deps.events.users('user.roles_updated', { userId, username: user.username, isBot: user.isBot });
}

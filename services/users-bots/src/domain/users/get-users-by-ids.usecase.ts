import { commonErrors } from '@switchyard/errors';
import { Permissions } from '@switchyard/permissions';
import { requirePermission, type Actor } from '../authorization';
import type { Deps } from '../ports';
import { viewsOf, type UserView } from '../views';

export const MAX_USERS_PER_LOOKUP = 1000;

/** `POST /users/ids` (optional `since`: only users updated after it). An empty list is 400 user_ids. */
export async function getUsersByIds(deps: Deps, actor: Actor, ids: readonly string[], since?: number): Promise<UserView[]> {
  if (ids.length === 0 || ids.length > MAX_USERS_PER_LOOKUP) throw commonErrors.invalidBodyParam('user_ids');
  requirePermission(actor, Permissions.viewMembers);
  const users = await deps.users.findByIds([...new Set(ids)]);
  return viewsOf(deps, since === undefined ? users : users.filter((u) => u.updateAt > since));
}

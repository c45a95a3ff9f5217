import { commonErrors } from '@switchyard/errors';
import { Permissions } from '@switchyard/permissions';
import { requirePermission, type Actor } from '../authorization';
import type { Deps } from '../ports';
import { viewsOf, type UserView } from '../views';
import { MAX_USERS_PER_LOOKUP } from './get-users-by-ids.usecase';

/** `POST /users/usernames`. An empty list is 400 usernames. */
export async function getUsersByUsernames(deps: Deps, actor: Actor, usernames: readonly string[]): Promise<UserView[]> {
  if (usernames.length === 0 || usernames.length > MAX_USERS_PER_LOOKUP) throw commonErrors.invalidBodyParam('usernames');
  requirePermission(actor, Permissions.viewMembers);
  return viewsOf(deps, await deps.users.findByUsernames([...new Set(usernames.map((u) => u.toLowerCase()))]));
}

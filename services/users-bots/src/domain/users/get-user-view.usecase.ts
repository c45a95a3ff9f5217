import { Errors } from '../errors';
import type { Deps } from '../ports';
import { viewOf, type UserView } from '../views';

/** Internal (service-to-service, no permission check): one user and its bot row, deactivated ones included; 404 if missing. */
export async function getUserView(deps: Deps, userId: string): Promise<UserView> {
  const [user] = await deps.users.findByIds([userId]);
  if (!user) throw Errors.userNotFound();
  return viewOf(deps, user);
}

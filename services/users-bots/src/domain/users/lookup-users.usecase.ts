import { commonErrors } from '@switchyard/errors';
import type { User } from '../entities';
import type { Deps } from '../ports';
import { MAX_USERS_PER_LOOKUP } from './get-users-by-ids.usecase';

export type UserLookup = { readonly ids: readonly string[] } | { readonly usernames: readonly string[] };

/** Internal (service-to-service, no permission check): users by ids or by usernames, deactivated ones included. */
export async function lookupUsers(deps: Deps, lookup: UserLookup): Promise<User[]> {
  const keys = 'ids' in lookup ? lookup.ids : lookup.usernames;
  if (keys.length > MAX_USERS_PER_LOOKUP) throw commonErrors.invalidBodyParam('ids' in lookup ? 'ids' : 'usernames');
  if (keys.length === 0) return [];
  const unique = [...new Set(keys)];
  return 'ids' in lookup ? deps.users.findByIds(unique) : deps.users.findByUsernames(unique.map((u) => u.toLowerCase()));
}

import { commonErrors } from '@switchyard/errors';
import { Permissions } from '@switchyard/permissions';
import { requireOnTeam, requirePermission, type Actor } from '../authorization';
import type { Deps, UserQuery } from '../ports';
import { viewsOf, type UserView } from '../views';

export interface ListUsersInput {
  readonly page: number;
  readonly perPage: number;
  readonly inTeam?: string;
  readonly notInTeam?: string;
  readonly withoutTeam: boolean;
  readonly active: boolean;
  readonly inactive: boolean;
  readonly role?: string;
  readonly roles?: readonly string[];
  readonly sort?: string;
}

/**
 * `GET /users` with the reference's filters and permission rules: in_team / not_in_team need view_team on
 * that team, without_team needs list_users_without_team; `sort` (create_at, last_activity_at) needs in_team.
 */
export async function listUsers(deps: Deps, actor: Actor, input: ListUsersInput): Promise<UserView[]> {
  requirePermission(actor, Permissions.viewMembers);
  if (input.sort !== undefined && input.sort !== '') {
    if ((input.sort !== 'create_at' && input.sort !== 'last_activity_at') || input.inTeam === undefined) {
      throw commonErrors.invalidUrlParam('sort');
    }
  }
  if (input.active && input.inactive) throw commonErrors.invalidUrlParam('inactive');
  if (input.inTeam !== undefined) await requireOnTeam(deps, actor, input.inTeam, Permissions.viewTeam);
  if (input.notInTeam !== undefined) await requireOnTeam(deps, actor, input.notInTeam, Permissions.viewTeam);
  if (input.withoutTeam) requirePermission(actor, Permissions.listUsersWithoutTeam);

  const excludeIds: string[] = [];
  if (input.notInTeam !== undefined) excludeIds.push(...(await deps.members.userIdsInTeam(input.notInTeam)));
  if (input.withoutTeam) excludeIds.push(...(await deps.members.userIdsWithAnyTeam()));
  const query: UserQuery = {
    page: input.page,
    perPage: input.perPage,
    ...(input.inTeam !== undefined ? { ids: await deps.members.userIdsInTeam(input.inTeam) } : {}),
    ...(excludeIds.length > 0 ? { excludeIds } : {}),
    ...(input.active ? { active: true } : input.inactive ? { active: false } : {}),
    ...(input.role ? { role: input.role } : {}),
    ...(input.roles && input.roles.length > 0 ? { anyRole: input.roles } : {}),
    sort: input.sort === 'create_at' || input.sort === 'last_activity_at' ? input.sort : 'username',
  };
  return viewsOf(deps, await deps.users.search(query));
}

import { Permissions } from '@switchyard/permissions';
import type { IncomingHook } from '../entities';
import { Errors } from '../errors';
import type { Actor, Deps, HookQuery } from '../ports';
import { hasTeamPerm, isSystemWide, requireEnabled, requireTeamPerm, teamRolesOf } from './hook-access';

export interface ListHooksInput {
  readonly teamId?: string;
  readonly page: number;
  readonly perPage: number;
  readonly includeTotalCount: boolean;
}

/** `GET /hooks/incoming`: only one's own hooks without manage-others (team-wide with `team_id`, system-wide without). */
export async function listHooks(deps: Deps, actor: Actor, input: ListHooksInput): Promise<{ hooks: IncomingHook[]; total?: number }> {
  requireEnabled(deps);
  let userId: string | undefined = actor.userId;
  if (input.teamId !== undefined && input.teamId !== '') {
    const teamRoles = await teamRolesOf(deps, actor, input.teamId);
    requireTeamPerm(actor, teamRoles, Permissions.manageOwnIncomingWebhooks);
    if (hasTeamPerm(actor, teamRoles, Permissions.manageOthersIncomingWebhooks)) userId = undefined;
  } else {
    if (!isSystemWide(actor, Permissions.manageOwnIncomingWebhooks)) throw Errors.permissions(actor.userId, Permissions.manageOwnIncomingWebhooks);
    if (isSystemWide(actor, Permissions.manageOthersIncomingWebhooks)) userId = undefined;
  }
  const query: HookQuery = {
    ...(input.teamId ? { teamId: input.teamId } : {}),
    ...(userId !== undefined ? { userId } : {}),
    page: input.page,
    perPage: input.perPage,
  };
  const hooks = await deps.hooks.list(query);
  if (!input.includeTotalCount) return { hooks };
  const { page: _p, perPage: _pp, ...filter } = query;
  return { hooks, total: await deps.hooks.count(filter) };
}

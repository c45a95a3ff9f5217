import { isValidId } from '@switchyard/ids';
import { commonErrors } from '@switchyard/errors';
import { hasPermission, Permissions } from '@switchyard/permissions';
import type { OutgoingHook } from '../entities';
import { hookErrors } from '../errors';
import type { Deps, Page } from '../ports';
import { hasTeamPermission, requireOutgoingEnabled, requireTeamPermission, type Actor } from './hook-access';

export interface ListHooksQuery extends Page {
  readonly channelId?: string;
  readonly teamId?: string;
}

/**
 * `GET /hooks/outgoing`: by channel (its team's permission), by team, or all (system permission).
 * Without manage_others only the caller's own hooks.
 */
export async function listHooks(deps: Deps, actor: Actor, query: ListHooksQuery): Promise<OutgoingHook[]> {
  requireOutgoingEnabled(deps);
  const own = Permissions.manageOwnOutgoingWebhooks;
  const others = Permissions.manageOthersOutgoingWebhooks;
  const page = { page: query.page, perPage: query.perPage };
  if (query.channelId) {
    if (!isValidId(query.channelId)) throw commonErrors.invalidUrlParam('channel_id');
    const channel = await deps.platform.channel(query.channelId);
    if (!channel) throw hookErrors.channelNotFound();
    await requireTeamPermission(deps, actor, channel.team_id, own);
    const all = await hasTeamPermission(deps, actor, channel.team_id, others);
    return deps.hooks.list({ ...page, channelId: channel.id, ...(all ? {} : { creatorId: actor.userId }) });
  }
  if (query.teamId) {
    if (!isValidId(query.teamId)) throw commonErrors.invalidUrlParam('team_id');
    await requireTeamPermission(deps, actor, query.teamId, own);
    const all = await hasTeamPermission(deps, actor, query.teamId, others);
    return deps.hooks.list({ ...page, teamId: query.teamId, ...(all ? {} : { creatorId: actor.userId }) });
  }
  if (!hasPermission(actor.roles, own)) throw commonErrors.permissions(actor.userId, own);
  return deps.hooks.list({ ...page, ...(hasPermission(actor.roles, others) ? {} : { creatorId: actor.userId }) });
}

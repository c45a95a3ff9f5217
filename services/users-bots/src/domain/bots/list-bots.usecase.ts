import { commonErrors } from '@switchyard/errors';
import { Permissions } from '@switchyard/permissions';
import { can, type Actor } from '../authorization';
import type { BotQuery, Deps } from '../ports';
import { botViewsOf, type BotView } from '../views';

export interface ListBotsInput {
  readonly page: number;
  readonly perPage: number;
  readonly includeDeleted: boolean;
  /** Bots whose owner is a deactivated user. */
  readonly onlyOrphaned: boolean;
}

/** `GET /bots`: read_others_bots lists every bot, read_bots only your own; neither is 403. */
export async function listBots(deps: Deps, actor: Actor, input: ListBotsInput): Promise<BotView[]> {
  let ownerId: string | undefined;
  if (can(actor, Permissions.readOthersBots)) ownerId = undefined;
  else if (can(actor, Permissions.readBots)) ownerId = actor.userId;
  else throw commonErrors.permissions(actor.userId, Permissions.readBots);

  let ownerIds: string[] | undefined;
  if (input.onlyOrphaned) {
    const deactivated = await deps.users.search({ active: false, page: 0, perPage: Number.MAX_SAFE_INTEGER });
    ownerIds = deactivated.filter((u) => !u.isBot).map((u) => u.id);
    if (ownerIds.length === 0) return [];
  }
  const query: BotQuery = {
    page: input.page,
    perPage: input.perPage,
    includeDeleted: input.includeDeleted,
    ...(ownerId !== undefined ? { ownerId } : {}),
    ...(ownerIds !== undefined ? { ownerIds } : {}),
  };
  return botViewsOf(deps, await deps.bots.list(query));
}

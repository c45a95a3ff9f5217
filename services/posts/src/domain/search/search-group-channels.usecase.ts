import type { Actor } from '../actor';
import type { Channel } from '../entities';
import type { Deps } from '../ports';
import { AUTOCOMPLETE_LIMIT } from './channel-autocomplete.usecase';

/** The caller's group messages read per search at most (bounded work). */
const SCAN_LIMIT = 1_000;
/** Ids per users lookup (users-bots takes at most 1,000). */
const USERS_PER_CALL = 1_000;
/** Words of a term considered at most. */
const MAX_WORDS = 20;

/**
 * `POST /channels/group/search` (mattermost-wire-3.md §2.6): the caller's group messages whose members'
 * usernames, joined with `, `, contain every space-separated word of the term (case-insensitive; the
 * reference's `LIKE %word%` on the aggregated usernames), at most 50. An empty term answers `[]`.
 */
export async function searchGroupChannels(deps: Deps, actor: Actor, term: string): Promise<Channel[]> {
  if (term === '') return [];
  const words = term.trim().toLowerCase().split(' ').slice(0, MAX_WORDS);
  const ids = await deps.channelMembers.channelIdsOfUser(actor.userId);
  const groups = (await deps.channels.findScopes(ids)).filter((s) => s.type === 'G').slice(0, SCAN_LIMIT);
  const membersOf = await Promise.all(groups.map(async (g) => ({ id: g.id, userIds: (await deps.channelMembers.listByChannel(g.id, { page: 0, perPage: 16 })).map((m) => m.user_id) })));
  const all = [...new Set(membersOf.flatMap((g) => g.userIds))];
  const chunks: string[][] = [];
  for (let i = 0; i < all.length; i += USERS_PER_CALL) chunks.push(all.slice(i, i + USERS_PER_CALL));
  const users = (await Promise.all(chunks.map((ids) => deps.users.usersByIds(ids)))).flat();
  const names = new Map(users.map((u) => [u.id, u.username.toLowerCase()]));
  const found: string[] = [];
  for (const group of membersOf) {
    const joined = group.userIds.map((id) => names.get(id) ?? '').join(', ');
    if (words.every((w) => joined.includes(w))) found.push(group.id);
    if (found.length >= AUTOCOMPLETE_LIMIT) break;
  }
  return deps.channels.findByIds(found);
}

import { commonErrors, notFound } from '@switchyard/errors';
import { hasPermission, Permissions, splitRoles, Roles } from '@switchyard/permissions';
import type { Actor } from '../actor';
import type { Channel } from '../entities';
import type { Deps } from '../ports';
import { channelMatches, CHANNEL_SEARCH_LIMIT } from './search-channels.usecase';

/** The reference's autocomplete answers at most 50 channels (ChannelSearchDefaultLimit). */
export const AUTOCOMPLETE_LIMIT = 50;
/** Channels of a team (or of a user) read per request at most (bounded work). */
const SCAN_LIMIT = 10_000;

const byDisplayName = (a: Channel, b: Channel): number => {
  const x = a.display_name.toLowerCase();
  const y = b.display_name.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
};

const viewArchived = (deps: Deps): boolean =>
  (deps.liveConfig.current().TeamSettings as { ExperimentalViewArchivedChannels?: unknown }).ExperimentalViewArchivedChannels === true;

const isGuest = (actor: Actor): boolean => splitRoles(actor.roles).includes(Roles.systemGuest);

/** The team's roles of the caller when they may list the team's channels (system roles first), else the 403. */
async function requireListTeamChannels(deps: Deps, actor: Actor, teamId: string): Promise<void> {
  if (hasPermission(actor.roles, Permissions.listTeamChannels)) return;
  const teamRoles = await deps.users.teamRoles(teamId, actor.userId);
  if (!hasPermission(teamRoles, Permissions.listTeamChannels)) throw commonErrors.permissions(actor.userId, Permissions.listTeamChannels);
}

/**
 * `POST /teams/{team_id}/channels/search_archived` (mattermost-wire-3.md §2.6): the team's archived public
 * channels, then its archived private channels the caller belongs to, each by display name, at most 100 each.
 * Without list_team_channels the caller must be a team member (else 404 from the member lookup, as the reference).
 */
export async function searchArchivedTeamChannels(deps: Deps, actor: Actor, teamId: string, term: string): Promise<Channel[]> {
  if (!hasPermission(actor.roles, Permissions.listTeamChannels)) {
    const teamRoles = await deps.users.teamRoles(teamId, actor.userId);
    if (teamRoles === undefined) throw notFound('app.team.get_member.missing.app_error', 'No team member found for that user ID and team ID.');
  }
  const channels = await deps.channels.listByTeam(teamId, ['O', 'P'], true, { page: 0, perPage: SCAN_LIMIT });
  const matching = channels.filter((c) => c.delete_at !== 0 && channelMatches(c, term));
  const open = matching.filter((c) => c.type === 'O').slice(0, CHANNEL_SEARCH_LIMIT);
  const privateOnes = matching.filter((c) => c.type === 'P');
  if (privateOnes.length === 0) return open;
  const mine = new Set(await deps.channelMembers.channelIdsOfUser(actor.userId));
  return [...open, ...privateOnes.filter((c) => mine.has(c.id)).slice(0, CHANNEL_SEARCH_LIMIT)];
}

/**
 * `GET /teams/{team_id}/channels/autocomplete?name=` (the `~` autocomplete): list_team_channels (403); the
 * team's public channels and the private ones the caller belongs to (a guest: only channels they belong to),
 * archived ones too when ExperimentalViewArchivedChannels, by display name, at most 50.
 */
export async function autocompleteTeamChannels(deps: Deps, actor: Actor, teamId: string, name: string): Promise<Channel[]> {
  await requireListTeamChannels(deps, actor, teamId);
  const channels = await deps.channels.listByTeam(teamId, ['O', 'P'], viewArchived(deps), { page: 0, perPage: SCAN_LIMIT });
  const term = name.trim();
  const matching = channels.filter((c) => channelMatches(c, term));
  const needsMembership = isGuest(actor) || matching.some((c) => c.type === 'P');
  const mine = needsMembership ? new Set(await deps.channelMembers.channelIdsOfUser(actor.userId)) : new Set<string>();
  const guest = isGuest(actor);
  return matching.filter((c) => (guest || c.type === 'P' ? mine.has(c.id) : true)).slice(0, AUTOCOMPLETE_LIMIT);
}

/**
 * `GET /teams/{team_id}/channels/search_autocomplete?name=` (the `in:` autocomplete; session only): the
 * caller's own channels of that team and their group messages (at most 50 matching by name, display name or
 * purpose), plus their direct messages whose other member's username or nickname starts with the term (the
 * username as display name, at most 50), sorted by display name.
 */
export async function autocompleteChannelsForSearch(deps: Deps, actor: Actor, teamId: string, name: string): Promise<Channel[]> {
  const term = name.trim();
  const ids = (await deps.channelMembers.channelIdsOfUser(actor.userId)).slice(0, SCAN_LIMIT);
  const archivedToo = viewArchived(deps);
  const scopes = await deps.channels.findScopes(ids);
  const wanted = scopes.filter((s) => (archivedToo || s.delete_at === 0) && ((s.team_id === teamId && teamId !== '') || s.type === 'G' || s.type === 'D'));
  const channels = await deps.channels.findByIds(wanted.map((s) => s.id));
  const teamAndGroups = channels.filter((c) => c.type !== 'D' && channelMatches(c, term)).slice(0, AUTOCOMPLETE_LIMIT);
  const directs = await matchingDirects(deps, actor.userId, channels.filter((c) => c.type === 'D' && c.delete_at === 0), term);
  return [...teamAndGroups, ...directs].sort(byDisplayName);
}

/** Direct channels whose other member's username or nickname starts with the term, shown under that username. */
async function matchingDirects(deps: Deps, userId: string, directs: readonly Channel[], term: string): Promise<Channel[]> {
  const otherOf = (c: Channel): string => {
    const [a, b] = c.name.split('__');
    return a === userId ? (b ?? '') : (a ?? '');
  };
  const others = [...new Set(directs.map(otherOf).filter((id) => id !== '' && id !== userId))];
  if (others.length === 0) return [];
  const users = new Map((await deps.users.usersByIds(others)).map((u) => [u.id, u]));
  const t = term.toLowerCase();
  const out: Channel[] = [];
  for (const channel of directs) {
    const other = users.get(otherOf(channel));
    if (!other) continue;
    if (t !== '' && !other.username.toLowerCase().startsWith(t) && !other.nickname.toLowerCase().startsWith(t)) continue;
    out.push({ ...channel, display_name: other.username });
    if (out.length >= AUTOCOMPLETE_LIMIT) break;
  }
  return out;
}

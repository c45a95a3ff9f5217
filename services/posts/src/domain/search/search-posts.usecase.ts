import { commonErrors } from '@switchyard/errors';
import { hasPermission, Permissions } from '@switchyard/permissions';
import type { Actor } from '../actor';
import type { StoredPost } from '../entities';
import { getOrCreateDirectChannel } from '../channels/direct-channel.usecase';
import { groupChannelName } from '../channels/group-channel.usecase';
import type { Deps } from '../ports';
import type { SearchScope } from './search-scope.port';
import type { FoundPost, PostSearchIndex, PostSearchQuery } from './post-search.port';
import { newestFirst } from './post-matches-query';
import { timeBounds } from './search-dates';
import { parseSearch, searchesNothing, type ParsedSearch } from './search-query';
import type { UserNames } from './user-names.port';

/** The reference's database search answers at most 100 posts and no further pages. */
export const SEARCH_LIMIT = 100;

export interface SearchPostsCommand {
  /** undefined: every team of the caller (`POST /posts/search`). */
  readonly teamId?: string;
  readonly terms: string;
  readonly isOrSearch: boolean;
  /** Seconds east of UTC. */
  readonly timeZoneOffset: number;
  readonly includeDeletedChannels: boolean;
  readonly page: number;
}

export interface SearchResult {
  /** Newest first. */
  readonly posts: StoredPost[];
  /** post id → the query's words (and tags, phrases) found in it, for highlighting. */
  readonly matches: Readonly<Record<string, string[]>>;
}

export type SearchDeps = Deps & {
  readonly search: PostSearchIndex;
  readonly scope: SearchScope;
  readonly userNames: UserNames;
};

const EMPTY: SearchResult = { posts: [], matches: {} };

/**
 * `POST /teams/{team_id}/posts/search` and `POST /posts/search` (mattermost-wire-3.md §2): the caller's own
 * channels only (memberships read from the store, so a member removed a moment ago finds nothing there),
 * the team's plus their DMs and GMs; plain words and `#tags` are two searches whose results are merged.
 */
export async function searchPosts(deps: SearchDeps, actor: Actor, command: SearchPostsCommand): Promise<SearchResult> {
  if (command.teamId !== undefined) await requireViewTeam(deps, actor, command.teamId);
  if (command.page > 0) return EMPTY;
  const parsed = parseSearch(command.terms);
  if (searchesNothing(parsed)) return EMPTY;

  const readable = await readableChannels(deps, actor, command);
  if (readable.length === 0) return EMPTY;
  const channelIds = await narrowByIn(deps, actor, readable, parsed, command.teamId);
  if (channelIds.length === 0) return EMPTY;
  const authors = await authorIds(deps, parsed, command.teamId);
  // `from:` only names authors who cannot have posts here: nothing to search (the index would read every match of the terms to find none).
  if (authors.include?.length === 0) return EMPTY;

  const base: Omit<PostSearchQuery, 'words' | 'phrases' | 'hashtags'> = {
    channelIds,
    excludedWords: parsed.excludedWords,
    excludedPhrases: parsed.excludedPhrases,
    excludedHashtags: parsed.excludedHashtags,
    orSearch: command.isOrSearch,
    ...(authors.include ? { userIds: authors.include } : {}),
    excludedUserIds: authors.exclude,
    time: timeBounds(parsed.dates, command.timeZoneOffset, deps.clock.now()),
    limit: SEARCH_LIMIT,
    highlight: { words: parsed.words, phrases: parsed.phrases, hashtags: parsed.hashtags },
  };
  const hasText = parsed.words.length + parsed.phrases.length > 0;
  const hasTags = parsed.hashtags.length > 0;
  const run = async (excludedUserIds: readonly string[]): Promise<FoundPost[]> => {
    const runs: Promise<FoundPost[]>[] = [];
    if (hasText || !hasTags) runs.push(deps.search.search({ ...base, excludedUserIds, words: parsed.words, phrases: parsed.phrases, hashtags: [] }));
    if (hasTags) runs.push(deps.search.search({ ...base, excludedUserIds, words: [], phrases: [], hashtags: parsed.hashtags }));
    return merge(await Promise.all(runs));
  };
  const first = await run(base.excludedUserIds);
  const found = authors.include === undefined && authors.exclude.length > 0 ? await teamMembersOnly(deps, command.teamId, first, base.excludedUserIds, run) : first;
  return resultOf(found);
}

/** Searches again with the authors found outside the team excluded at most this many times. */
const MEMBER_ROUNDS = 3;

/**
 * `-from:` alone keeps only posts of the searched team's members (of any team in the all-teams form), as
 * the reference's `UserId IN (SELECT Id FROM Users, TeamMembers WHERE TeamId = :TeamId AND Username NOT IN …)`:
 * the authors of the posts found are checked (at most SEARCH_LIMIT), and while a full page had outsiders the
 * search runs again without them, so the answer is still the newest posts that qualify.
 */
async function teamMembersOnly(
  deps: SearchDeps,
  teamId: string | undefined,
  found: FoundPost[],
  excludedUserIds: readonly string[],
  run: (excludedUserIds: readonly string[]) => Promise<FoundPost[]>,
): Promise<FoundPost[]> {
  const members = new Set<string>();
  const outsiders = new Set<string>();
  let posts = found;
  for (let round = 1; ; round++) {
    const unchecked = [...new Set(posts.map((found) => found.post.user_id))].filter((id) => !members.has(id) && !outsiders.has(id));
    const newOutsiders: string[] = [];
    for (let at = 0; at < unchecked.length; at += SEARCH_LIMIT) {
      const batch = unchecked.slice(at, at + SEARCH_LIMIT);
      const inTeam = await deps.users.teamMembersAmong(teamId, batch);
      for (const id of batch) {
        if (inTeam.has(id)) {
          members.add(id);
        } else {
          outsiders.add(id);
          newOutsiders.push(id);
        }
      }
    }
    const kept = posts.filter((found) => members.has(found.post.user_id));
    if (newOutsiders.length === 0 || posts.length < SEARCH_LIMIT || round >= MEMBER_ROUNDS) return kept;
    posts = await run([...excludedUserIds, ...outsiders]);
  }
}

async function requireViewTeam(deps: SearchDeps, actor: Actor, teamId: string): Promise<void> {
  if (hasPermission(actor.roles, Permissions.viewTeam)) return;
  const roles = (await deps.users.teamRoles(teamId, actor.userId)) ?? '';
  if (!hasPermission(roles, Permissions.viewTeam)) throw commonErrors.permissions(actor.userId, Permissions.viewTeam);
}

/** The caller's channels in scope: members only (system admins too, as the reference); archived ones only when asked and allowed. */
async function readableChannels(deps: SearchDeps, actor: Actor, command: SearchPostsCommand): Promise<readonly string[]> {
  const team = deps.liveConfig.current().TeamSettings as { ExperimentalViewArchivedChannels?: unknown };
  const archivedToo = command.includeDeletedChannels && team.ExperimentalViewArchivedChannels === true;
  return deps.scope.readableChannelIds(actor.userId, command.teamId, archivedToo);
}

/**
 * `in:name`, `in:@user` (the DM with them, created when missing as the reference does), `in:@a,b,c` (the
 * existing group channel of exactly those users) and `-in:`, all among the readable channels: an unknown or
 * unreadable one matches nothing. A leading `~` is ignored. Only the named channels are read.
 */
async function narrowByIn(deps: SearchDeps, actor: Actor, readable: readonly string[], parsed: ParsedSearch, teamId: string | undefined): Promise<readonly string[]> {
  // The scope's own list when nothing narrows it (the index may reuse its channel set while the list is the same).
  if (parsed.inChannels.length + parsed.excludedInChannels.length === 0) return readable;
  const values = [...new Set([...parsed.inChannels, ...parsed.excludedInChannels].map(cleanIn))];
  const names = values.filter((v) => v.startsWith('@')).flatMap((v) => v.slice(1).split(','));
  const userIds = names.length > 0 ? await deps.userNames.idsByUsernames(names) : new Map<string, string>();
  const readableSet = new Set(readable);
  const idsOf = new Map<string, Set<string>>();
  for (const value of values) idsOf.set(value, await channelIdsNamed(deps, actor, value, userIds, teamId, readable));
  const named = (raw: string): Set<string> => idsOf.get(cleanIn(raw)) ?? new Set();
  let channels = parsed.inChannels.length > 0 ? [...new Set(parsed.inChannels.flatMap((v) => [...named(v)]))].filter((id) => readableSet.has(id)) : [...readable];
  const excluded = new Set(parsed.excludedInChannels.flatMap((v) => [...named(v)]));
  if (excluded.size > 0) channels = channels.filter((id) => !excluded.has(id));
  return channels;
}

const cleanIn = (value: string): string => value.replace(/^~+/, '');

/** The ids an `in:` value names (unknown: none). In a team search a name is that team's channel; across teams, any readable channel of that name. */
async function channelIdsNamed(deps: SearchDeps, actor: Actor, value: string, userIds: ReadonlyMap<string, string>, teamId: string | undefined, readable: readonly string[]): Promise<Set<string>> {
  if (!value.startsWith('@')) {
    if (teamId !== undefined) {
      const channel = await deps.channels.findByName(teamId, value);
      return new Set(channel ? [channel.id] : []);
    }
    const scopes = await deps.channels.findScopes(readable);
    return new Set(scopes.filter((c) => c.type !== 'D' && c.type !== 'G' && c.name.toLowerCase() === value).map((c) => c.id));
  }
  const users = value.slice(1).split(',').filter((u) => u !== '');
  const found = users.map((u) => userIds.get(u));
  if (users.length === 0 || found.some((id) => id === undefined)) return new Set();
  const ids = [...new Set(found as string[])];
  if (users.length === 1) {
    // The reference creates the DM named by `in:@user` when it does not exist (a side effect of searching).
    const direct = await getOrCreateDirectChannel(deps, actor.userId, ids[0] as string);
    return new Set([direct.id]);
  }
  const group = await deps.channels.findByName('', groupChannelName(ids));
  return new Set(group && group.type === 'G' ? [group.id] : []);
}

/**
 * `from:` names as ids (`include`): an unknown name matches nothing and is left out, and so is an author who is
 * not a member of the searched team (of any team in the all-teams form), as the reference's
 * `UserId IN (SELECT Id FROM Users, TeamMembers …)`; an empty `include` matches no post. `-from:` excludes that
 * author's posts (and, alone, the posts of non-members: see teamMembersOnly).
 */
async function authorIds(deps: SearchDeps, parsed: ParsedSearch, teamId: string | undefined): Promise<{ include?: string[]; exclude: string[] }> {
  const names = [...parsed.fromUsers, ...parsed.excludedFromUsers];
  if (names.length === 0) return { exclude: [] };
  const ids = await deps.userNames.idsByUsernames(names);
  const idOf = (name: string): string => ids.get(name) ?? `unknown:${name}`;
  const exclude = parsed.excludedFromUsers.map(idOf);
  if (parsed.fromUsers.length === 0) return { exclude };
  const wanted = parsed.fromUsers.flatMap((name) => ids.get(name) ?? []);
  const members = wanted.length > 0 ? await deps.users.teamMembersAmong(teamId, wanted) : new Set<string>();
  return { include: wanted.filter((id) => members.has(id)), exclude };
}

function merge(lists: readonly FoundPost[][]): FoundPost[] {
  if (lists.length === 1) return lists[0] as FoundPost[];
  const byId = new Map<string, FoundPost>();
  for (const list of lists) for (const found of list) byId.set(found.post.id, found);
  return [...byId.values()].sort((a, b) => newestFirst(a.post, b.post)).slice(0, SEARCH_LIMIT);
}

/**
 * The posts and, by post id, their matches (each made by the index from the whole query's terms). The record
 * has no prototype: V8 keeps such an object in dictionary mode from the start, so a hundred new keys do not
 * each make a hidden class (~25 % less CPU to fill and stringify one of 100 keys, measured).
 */
function resultOf(found: readonly FoundPost[]): SearchResult {
  const matches = Object.create(null) as Record<string, string[]>;
  for (const { post, matches: words } of found) matches[post.id] = words;
  return { posts: found.map((f) => f.post), matches };
}

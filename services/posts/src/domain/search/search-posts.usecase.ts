import { commonErrors } from '@switchyard/errors';
import { hasPermission, Permissions } from '@switchyard/permissions';
import type { Actor } from '../actor';
import type { Channel, StoredPost } from '../entities';
import type { Deps } from '../ports';
import type { PostSearchIndex, PostSearchQuery } from './post-search.port';
import { timeBounds } from './search-dates';
import { matchedWords } from './search-matches';
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

export type SearchDeps = Pick<Deps, 'users' | 'channels' | 'channelMembers' | 'clock' | 'liveConfig'> & {
  readonly search: PostSearchIndex;
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
  const channelIds = await narrowByIn(deps, actor, readable, parsed);
  if (channelIds.length === 0) return EMPTY;
  const authors = await authorIds(deps, parsed);

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
  };
  const hasText = parsed.words.length + parsed.phrases.length > 0;
  const hasTags = parsed.hashtags.length > 0;
  const runs: Promise<StoredPost[]>[] = [];
  if (hasText || !hasTags) runs.push(deps.search.search({ ...base, words: parsed.words, phrases: parsed.phrases, hashtags: [] }));
  if (hasTags) runs.push(deps.search.search({ ...base, words: [], phrases: [], hashtags: parsed.hashtags }));
  const posts = merge(await Promise.all(runs));
  return { posts, matches: matchesOf(posts, parsed) };
}

async function requireViewTeam(deps: SearchDeps, actor: Actor, teamId: string): Promise<void> {
  if (hasPermission(actor.roles, Permissions.viewTeam)) return;
  const roles = (await deps.users.teamRoles(teamId, actor.userId)) ?? '';
  if (!hasPermission(roles, Permissions.viewTeam)) throw commonErrors.permissions(actor.userId, Permissions.viewTeam);
}

/** The caller's channels in scope: members only (system admins too, as the reference); archived ones only when asked and allowed. */
async function readableChannels(deps: SearchDeps, actor: Actor, command: SearchPostsCommand): Promise<Channel[]> {
  const memberships = await deps.channelMembers.listByUser(actor.userId);
  if (memberships.length === 0) return [];
  const channels = await deps.channels.findByIds(memberships.map((m) => m.channel_id));
  const team = deps.liveConfig.current().TeamSettings as { ExperimentalViewArchivedChannels?: unknown };
  const archivedToo = command.includeDeletedChannels && team.ExperimentalViewArchivedChannels === true;
  return channels.filter((c) => (command.teamId === undefined || c.team_id === command.teamId || c.team_id === '') && (c.delete_at === 0 || archivedToo));
}

/** `in:name`, `in:@user` (the DM with them) and `-in:` among the readable channels; an unknown or unreadable one matches nothing. */
async function narrowByIn(deps: SearchDeps, actor: Actor, readable: readonly Channel[], parsed: ParsedSearch): Promise<string[]> {
  const dmNames = [...parsed.inChannels, ...parsed.excludedInChannels].filter((n) => n.startsWith('@')).map((n) => n.slice(1));
  const ids = dmNames.length > 0 ? await deps.userNames.idsByUsernames(dmNames) : new Map<string, string>();
  const matches = (value: string, channel: Channel): boolean => {
    if (!value.startsWith('@')) return channel.name.toLowerCase() === value;
    const other = ids.get(value.slice(1));
    if (other === undefined || channel.type !== 'D') return false;
    return channel.name === [actor.userId, other].sort().join('__');
  };
  let channels = readable;
  if (parsed.inChannels.length > 0) channels = channels.filter((c) => parsed.inChannels.some((v) => matches(v, c)));
  if (parsed.excludedInChannels.length > 0) channels = channels.filter((c) => !parsed.excludedInChannels.some((v) => matches(v, c)));
  return channels.map((c) => c.id);
}

/** `from:` names as ids; an unknown name stays as it is and so matches nothing. */
async function authorIds(deps: SearchDeps, parsed: ParsedSearch): Promise<{ include?: string[]; exclude: string[] }> {
  const names = [...parsed.fromUsers, ...parsed.excludedFromUsers];
  if (names.length === 0) return { exclude: [] };
  const ids = await deps.userNames.idsByUsernames(names);
  const idOf = (name: string): string => ids.get(name) ?? `unknown:${name}`;
  return { ...(parsed.fromUsers.length > 0 ? { include: parsed.fromUsers.map(idOf) } : {}), exclude: parsed.excludedFromUsers.map(idOf) };
}

function merge(lists: readonly StoredPost[][]): StoredPost[] {
  if (lists.length === 1) return lists[0] as StoredPost[];
  const byId = new Map<string, StoredPost>();
  for (const list of lists) for (const post of list) byId.set(post.id, post);
  return [...byId.values()].sort((a, b) => b.create_at - a.create_at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)).slice(0, SEARCH_LIMIT);
}

function matchesOf(posts: readonly StoredPost[], parsed: ParsedSearch): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const post of posts) out[post.id] = matchedWords(post, parsed);
  return out;
}

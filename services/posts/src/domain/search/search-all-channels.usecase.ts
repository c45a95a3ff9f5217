import { commonErrors } from '@switchyard/errors';
import { hasPermission } from '@switchyard/permissions';
import type { InternalTeam } from '@switchyard/contracts';
import type { Actor } from '../actor';
import type { Channel, ChannelType } from '../entities';
import type { AcrossTeamsFilter, Deps } from '../ports';
import { channelMatches } from './search-channels.usecase';

/** Channels read per search at most (bounded work); `total_count` counts the matches among them. */
const SCAN_LIMIT = 10_000;
/** The reference's limit when the body has no `per_page`. */
const DEFAULT_LIMIT = 100;
/** The caller's own channels answered by `system_console=false` at most. */
const OWN_LIMIT = 50;
/** The reference's default channels (`exclude_default_channels`). */
const DEFAULT_CHANNEL_NAMES = new Set(['town-square', 'off-topic']);

export const READ_CHANNELS_PERMISSION = 'sysconsole_read_user_management_channels';
const READ_POLICIES_PERMISSION = 'sysconsole_read_compliance_data_retention_policy';

export interface AllChannelsSearch {
  readonly term: string;
  readonly teamIds?: readonly string[];
  readonly public: boolean;
  readonly private: boolean;
  readonly deleted: boolean;
  readonly includeDeleted: boolean;
  readonly excludeDefaultChannels: boolean;
  readonly groupConstrained: boolean;
  readonly excludePolicyConstrained: boolean;
  readonly includeSearchById: boolean;
  readonly page?: number;
  readonly perPage?: number;
}

export interface ChannelWithTeam {
  readonly channel: Channel;
  readonly team: InternalTeam;
}

export interface AllChannelsResult {
  readonly channels: ChannelWithTeam[];
  readonly totalCount: number;
  /** Both `page` and `per_page` were given: the answer is `{channels, total_count}`. */
  readonly paginated: boolean;
}

/**
 * `POST /channels/search` (mattermost-wire-3.md §2.6): the system console's search over every team's public
 * and private channels (never DMs/GMs), with the team's name beside each; needs
 * sysconsole_read_user_management_channels (system admins). A channel whose team does not exist is left out.
 */
export async function searchAllChannels(deps: Deps, actor: Actor, search: AllChannelsSearch): Promise<AllChannelsResult> {
  if (search.excludePolicyConstrained && !hasPermission(actor.roles, READ_POLICIES_PERMISSION)) throw commonErrors.permissions(actor.userId, READ_POLICIES_PERMISSION);
  if (!hasPermission(actor.roles, READ_CHANNELS_PERMISSION)) throw commonErrors.permissions(actor.userId, READ_CHANNELS_PERMISSION);
  const paginated = search.page !== undefined && search.perPage !== undefined;
  // No channel here is group-constrained (groups are not implemented).
  if (search.groupConstrained) return { channels: [], totalCount: 0, paginated };
  const types: ChannelType[] = search.public && !search.private ? ['O'] : search.private && !search.public ? ['P'] : ['O', 'P'];
  const filter: AcrossTeamsFilter = {
    types,
    archived: search.deleted ? 'archived' : search.includeDeleted ? 'all' : 'live',
    ...(search.teamIds && search.teamIds.length > 0 ? { teamIds: search.teamIds } : {}),
  };
  const scanned = await deps.channels.listAcrossTeams(filter, SCAN_LIMIT);
  const matching = scanned.filter(
    (c) => (channelMatches(c, search.term) || (search.includeSearchById && c.id === search.term.trim())) && !(search.excludeDefaultChannels && DEFAULT_CHANNEL_NAMES.has(c.name)),
  );
  const withTeams = sortByNames(await withTeam(deps, matching));
  const limit = search.perPage ?? DEFAULT_LIMIT;
  const offset = paginated ? (search.page ?? 0) * limit : 0;
  return { channels: withTeams.slice(offset, offset + limit), totalCount: withTeams.length, paginated };
}

/** `POST /channels/search?system_console=false`: the caller's own public and private channels of every team matching the term. */
export async function searchOwnChannels(deps: Deps, actor: Actor, term: string): Promise<ChannelWithTeam[]> {
  const ids = await deps.channelMembers.channelIdsOfUser(actor.userId);
  const channels = (await deps.channels.findByIds(ids)).filter((c) => c.team_id !== '' && c.delete_at === 0 && (c.type === 'O' || c.type === 'P') && channelMatches(c, term));
  return sortByNames(await withTeam(deps, channels)).slice(0, OWN_LIMIT);
}

async function withTeam(deps: Deps, channels: readonly Channel[]): Promise<ChannelWithTeam[]> {
  const teams = new Map<string, InternalTeam | undefined>();
  for (const teamId of new Set(channels.map((c) => c.team_id))) teams.set(teamId, await deps.users.team(teamId));
  return channels.flatMap((channel) => {
    const team = teams.get(channel.team_id);
    return team ? [{ channel, team }] : [];
  });
}

/** The reference's order: the channel's display name, then the team's. */
function sortByNames(list: ChannelWithTeam[]): ChannelWithTeam[] {
  const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  return list.sort((a, b) => compare(a.channel.display_name, b.channel.display_name) || compare(a.team.display_name, b.team.display_name) || compare(a.channel.id, b.channel.id));
}

import { hasPermission, Permissions } from '@switchyard/permissions';
import type { Actor } from '../actor';
import type { Channel } from '../entities';
import { notFound } from '@switchyard/errors';
import type { Deps } from '../ports';

/** The reference answers at most 100 channels. */
export const CHANNEL_SEARCH_LIMIT = 100;
/** Channels of a team read per search at most (bounded work). */
const SCAN_LIMIT = 10_000;

/** A term matches a channel as a prefix of its name, display name or purpose, or of a word in them (case-insensitive). */
export function channelMatches(channel: Pick<Channel, 'name' | 'display_name' | 'purpose'>, term: string): boolean {
  const t = term.trim().toLowerCase();
  if (t === '') return true;
  return [channel.name, channel.display_name, channel.purpose].some((field) => {
    const value = field.toLowerCase();
    return value.startsWith(t) || value.split(/[\s\-_.]+/).some((word) => word.startsWith(t));
  });
}

/**
 * `POST /teams/{team_id}/channels/search` (mattermost-wire-3.md §2.6): open channels of the team (archived
 * ones too when TeamSettings.ExperimentalViewArchivedChannels, as the reference), by display name, at most 100. Without list_team_channels the caller must be a team member (else
 * 404 from the member lookup, as the reference) and gets only the open channels they belong to.
 */
export async function searchTeamChannels(deps: Deps, actor: Actor, teamId: string, term: string): Promise<Channel[]> {
  let onlyMine = false;
  if (!hasPermission(actor.roles, Permissions.listTeamChannels)) {
    const teamRoles = await deps.users.teamRoles(teamId, actor.userId);
    if (teamRoles === undefined) throw notFound('app.team.get_member.missing.app_error', 'No team member found for that user ID and team ID.');
    onlyMine = !hasPermission(teamRoles, Permissions.listTeamChannels);
  }
  const archivedToo = (deps.liveConfig.current().TeamSettings as { ExperimentalViewArchivedChannels?: unknown }).ExperimentalViewArchivedChannels === true;
  const channels = await deps.channels.listByTeam(teamId, ['O'], archivedToo, { page: 0, perPage: SCAN_LIMIT });
  const matching = channels.filter((c) => channelMatches(c, term));
  if (!onlyMine) return matching.slice(0, CHANNEL_SEARCH_LIMIT);
  const mine = new Set(await deps.channelMembers.channelIdsOfUser(actor.userId));
  return matching.filter((c) => mine.has(c.id)).slice(0, CHANNEL_SEARCH_LIMIT);
}

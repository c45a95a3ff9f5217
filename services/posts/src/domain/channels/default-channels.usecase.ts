import type { Channel } from '../entities';
import { isDuplicateKeyError } from '../errors';
import type { Deps } from '../ports';
import { publishChannelEvent } from './channel-events';
import { ensureMember, newMember } from './members';
import { newChannel } from './new-channel';

/** The channels every team has (mattermost-wire.md §6), in creation order. */
export const DEFAULT_CHANNELS = [
  { name: 'town-square', display_name: 'Town Square' },
  { name: 'off-topic', display_name: 'Off-Topic' },
] as const;

export type DefaultChannelsOutcome = 'joined' | 'unknown_team';

/**
 * `team.created` / `team.member_added`: the team's town-square and off-topic exist (created now, open,
 * with `userId` as creator, if they do not yet) and `userId` is a member of both. Idempotent: a redelivered
 * event, or two at once, creates no second channel (unique team + name) and no second membership; an
 * archived default channel is neither recreated nor joined. An unknown team is reported, not thrown.
 */
export async function joinDefaultChannels(deps: Deps, teamId: string, userId: string): Promise<DefaultChannelsOutcome> {
  let teamName: string | undefined;
  for (const wanted of DEFAULT_CHANNELS) {
    let channel = await deps.channels.findByName(teamId, wanted.name);
    if (!channel) {
      teamName ??= await deps.users.teamName(teamId);
      if (teamName === undefined) return 'unknown_team';
      channel = await createDefaultChannel(deps, teamId, teamName, wanted, userId);
    }
    if (channel.delete_at !== 0) continue;
    const { created } = await ensureMember(deps, newMember(channel.id, userId, deps.clock.now()));
    if (created) await publishChannelEvent(deps, 'channel.member_added', channel, userId);
  }
  return 'joined';
}

async function createDefaultChannel(deps: Deps, teamId: string, teamName: string, wanted: (typeof DEFAULT_CHANNELS)[number], creatorId: string): Promise<Channel> {
  const now = deps.clock.now();
  const channel = newChannel({ team_id: teamId, team_name: teamName, type: 'O', display_name: wanted.display_name, name: wanted.name, creator_id: creatorId }, now);
  try {
    await deps.channels.insert(channel);
  } catch (error) {
    if (!isDuplicateKeyError(error) || error.key !== 'name') throw error;
    const existing = await deps.channels.findByName(teamId, wanted.name);
    if (!existing) throw error;
    return existing;
  }
  await publishChannelEvent(deps, 'channel.created', channel);
  return channel;
}

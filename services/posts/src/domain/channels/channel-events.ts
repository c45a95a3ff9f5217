import { envelope, Topics, type ChannelsEventType, type InternalChannel } from '@switchyard/contracts';
import type { Channel } from '../entities';
import type { Deps } from '../ports';

export function toInternalChannel(channel: Channel): InternalChannel {
  return {
    id: channel.id,
    team_id: channel.team_id,
    team_name: channel.team_name,
    type: channel.type,
    name: channel.name,
    display_name: channel.display_name,
    creator_id: channel.creator_id,
    delete_at: channel.delete_at,
  };
}

/** The Channel JSON clients get (mattermost-wire.md §6): the stored channel without its internal team name. */
export function wireChannel(channel: Channel): Record<string, unknown> {
  const { team_name: _teamName, ...wire } = channel;
  return { ...wire, scheme_id: null, props: null, group_constrained: null, shared: null, policy_id: null };
}

/** channels.events, keyed by channel id. Best effort: a failure is reported to `onError`, never thrown. */
export async function publishChannelEvent(deps: Pick<Deps, 'events'>, type: ChannelsEventType, channel: Channel, userId?: string, onError?: (error: unknown) => void, actorId?: string): Promise<void> {
  const payload = {
    channel: toInternalChannel(channel),
    ...(userId !== undefined ? { user_id: userId } : {}),
    ...(actorId !== undefined ? { actor_id: actorId } : {}),
    // channel_updated carries the whole Channel JSON (realtime has no other source for header, purpose, update_at).
    ...(type === 'channel.updated' ? { wire_channel: wireChannel(channel) } : {}),
  };
  try {
    await deps.events.publish(Topics.channelsEvents, [{ key: channel.id, value: envelope(type, payload) }]);
  } catch (error) {
    onError?.(error);
  }
}

import type { Envelope } from './envelope';
import type { InternalChannel } from './posts-model';

/** channels.events (posts → others), keyed by channel id. */
export type ChannelsEventType = 'channel.created' | 'channel.updated' | 'channel.deleted' | 'channel.member_added' | 'channel.member_removed';

export interface ChannelsEventPayload {
  readonly channel: InternalChannel;
  /** The member concerned, for member events. */
  readonly user_id?: string;
  /** Who made the change (the remover of a member, the adder, the creator), when known. */
  readonly actor_id?: string;
  /** The channel as clients see it (Channel JSON, mattermost-wire.md §6), for channel.updated. */
  readonly wire_channel?: Readonly<Record<string, unknown>>;
  /** Every member of a new group channel (channel.created of type G: realtime's `group_added`). */
  readonly member_ids?: readonly string[];
}

export type ChannelsEvent = Envelope<ChannelsEventType, ChannelsEventPayload>;

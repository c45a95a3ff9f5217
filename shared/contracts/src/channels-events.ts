import type { Envelope } from './envelope';
import type { InternalChannel } from './posts-model';

/** channels.events (posts → others), keyed by channel id. */
export type ChannelsEventType = 'channel.created' | 'channel.updated' | 'channel.deleted' | 'channel.member_added' | 'channel.member_removed';

export interface ChannelsEventPayload {
  readonly channel: InternalChannel;
  /** The member concerned, for member events. */
  readonly user_id?: string;
}

export type ChannelsEvent = Envelope<ChannelsEventType, ChannelsEventPayload>;

import Joi from 'joi';
import type { Envelope } from './envelope';

/**
 * `channel.viewed` on realtime.events (posts → every realtime replica, keyed by the user id): the user
 * viewed the channel (`POST /channels/members/{user_id}/view`); realtime sends `channel_viewed`
 * `{channel_id}` to that user's own connections (mattermost-wire-2.md §1.6, 2021 form).
 */
export interface ChannelViewedPayload {
  readonly user_id: string;
  readonly channel_id: string;
}

export type ChannelViewedEvent = Envelope<'channel.viewed', ChannelViewedPayload>;

export const channelViewedPayloadSchema = Joi.object<ChannelViewedPayload>({
  user_id: Joi.string().min(1).max(64).required(),
  channel_id: Joi.string().min(1).max(64).required(),
}).unknown(true);

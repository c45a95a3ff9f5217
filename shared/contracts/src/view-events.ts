import Joi from 'joi';
import type { Envelope } from './envelope';

/**
 * `channel.viewed` on realtime.events (posts → every realtime replica, keyed by the user id): the user
 * viewed channels that had unreads (`POST /channels/members/{user_id}/view`); realtime sends
 * `multiple_channels_viewed` `{channel_times}` to that user's own connections (mattermost-wire-2.md §1.6, the
 * newest form: the 9.0+ web and mobile apps no longer handle the 2021 `channel_viewed`).
 */
export interface ChannelViewedPayload {
  readonly user_id: string;
  /** The first of the viewed channels (what an older posts sent alone). */
  readonly channel_id: string;
  /** Each viewed channel's last post time, as the view's `last_viewed_at_times`; absent from an older posts. */
  readonly channel_times?: Readonly<Record<string, number>>;
}

export type ChannelViewedEvent = Envelope<'channel.viewed', ChannelViewedPayload>;

export const channelViewedPayloadSchema = Joi.object<ChannelViewedPayload>({
  user_id: Joi.string().min(1).max(64).required(),
  channel_id: Joi.string().min(1).max(64).required(),
  channel_times: Joi.object().pattern(Joi.string().max(64), Joi.number().integer().min(0)).max(64),
}).unknown(true);

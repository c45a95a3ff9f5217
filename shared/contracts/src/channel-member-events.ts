import Joi from 'joi';
import type { Envelope } from './envelope';

/**
 * `channel_member.updated` on realtime.events (posts → every realtime replica, keyed by the user id): a member's
 * own membership changed (`PUT /channels/{id}/members/{user_id}/notify_props`); realtime sends
 * `channel_member_updated` `{channelMember: <the ChannelMember JSON as a string>}` to that user's connections
 * (mattermost-wire-2.md §1, the reference's UpdateChannelMemberNotifyProps).
 */
export interface ChannelMemberUpdatedPayload {
  readonly user_id: string;
  /** The ChannelMember JSON as the REST routes answer it. */
  readonly channel_member: Readonly<Record<string, unknown>>;
}

export type ChannelMemberUpdatedEvent = Envelope<'channel_member.updated', ChannelMemberUpdatedPayload>;

export const channelMemberUpdatedPayloadSchema = Joi.object<ChannelMemberUpdatedPayload>({
  user_id: Joi.string().min(1).max(64).required(),
  channel_member: Joi.object().required(),
}).unknown(true);

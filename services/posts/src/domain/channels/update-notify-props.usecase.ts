import { envelope, Topics } from '@switchyard/contracts';
import { commonErrors } from '@switchyard/errors';
import type { Actor } from '../actor';
import type { ChannelMember } from '../entities';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { wireChannelMember } from './channel-member-wire';
import { notifyPropsError, updatableNotifyProps } from './channel-notify-props';
import { requireSelfOrEditOthers } from './view-channel.usecase';

/**
 * `PUT /channels/{channel_id}/members/{user_id}/notify_props` (the reference's updateChannelMemberNotifyProps):
 * a body that is not a JSON object: 400 invalid `notify_props`; someone else's membership without
 * edit_other_users: 403; no such membership: 404; the known keys present (mark_unread, desktop, desktop_threads,
 * email, push, push_threads, ignore_channel_mentions) are validated as the reference's ChannelMember check
 * (400 `model.channel_member.is_valid.*`) and merged into the stored props, other keys kept; `channel_member_updated`
 * with the membership goes to the user's connections (best effort, as the channel view's event).
 */
export async function updateChannelMemberNotifyProps(deps: Deps, actor: Actor, channelId: string, userId: string, body: unknown): Promise<ChannelMember> {
  const props = updatableNotifyProps(body);
  if (!props) throw commonErrors.invalidBodyParam('notify_props');
  requireSelfOrEditOthers(actor, userId);
  const member = await deps.channelMembers.find(channelId, userId);
  if (!member) throw Errors.memberNotFound();
  const invalid = notifyPropsError(props);
  if (invalid) throw invalid;
  const updated = await deps.channelMembers.updateNotifyProps(channelId, userId, props, deps.clock.now());
  if (!updated) throw Errors.memberNotFound();
  const event = envelope('channel_member.updated', { user_id: userId, channel_member: wireChannelMember(updated) });
  await deps.events.publish(Topics.realtimeEvents, [{ key: userId, value: event }]).catch(() => undefined);
  return updated;
}

import { Permissions } from '@switchyard/permissions';
import { accessTo, loadChannel } from '../access';
import type { Actor } from '../actor';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { publishChannelEvent } from './channel-events';

/** `DELETE /channels/{id}/members/{user_id}`: leaving is always allowed; removing others needs manage_*_channel_members. */
export async function removeChannelMember(deps: Deps, actor: Actor, channelId: string, userId: string): Promise<void> {
  const channel = await loadChannel(deps, channelId);
  if (channel.type === 'D' || channel.type === 'G') throw Errors.removeMemberType();
  if (userId !== actor.userId) {
    await accessTo(deps, actor, channel).require(channel.type === 'O' ? Permissions.managePublicChannelMembers : Permissions.managePrivateChannelMembers);
  }
  if (!(await deps.channelMembers.delete(channelId, userId))) throw Errors.memberNotFound();
  await publishChannelEvent(deps, 'channel.member_removed', channel, userId, undefined, actor.userId);
}

import { envelope, Topics, type ChannelViewedEvent } from '@switchyard/contracts';
import { badRequest, commonErrors } from '@switchyard/errors';
import { hasPermission, Permissions } from '@switchyard/permissions';
import type { Actor } from '../actor';
import type { Channel } from '../entities';
import type { Deps } from '../ports';
import { readThreadsOnView } from '../threads/read-threads-on-view';

export interface ViewResult {
  readonly status: 'OK';
  readonly last_viewed_at_times: Record<string, number>;
}

/** Self, or edit_other_users (403). */
export function requireSelfOrEditOthers(actor: Actor, userId: string): void {
  if (userId !== actor.userId && !hasPermission(actor.roles, Permissions.editOtherUsers)) throw commonErrors.permissions(actor.userId, Permissions.editOtherUsers);
}

/**
 * `POST /channels/members/{user_id}/view` (mattermost-wire-3.md §3.6): for each non-empty channel id the
 * user is a member of, last_viewed_at = max(itself, the channel's last_post_at), the message counts are
 * the channel's, mentions (and root mentions) 0, and one `multiple_channels_viewed` names those that had unreads (the newest
 * reference: GetChannelsWithUnreadsAndWithMentions). Membership is not checked (others are
 * skipped); none of the ids a known channel: 400. When the client does not support collapsed threads
 * (`collapsed_threads_supported` absent or false) or collapsed threads are off for the user, the threads of the
 * viewed channels that had unread messages or mentions are marked read as well (and, when the user does see
 * collapsed threads, `thread_read_changed` per channel tells their other clients), as the reference.
 */
export async function viewChannels(deps: Deps, actor: Actor, userId: string, channelIds: readonly string[], collapsedThreadsSupported = false): Promise<ViewResult> {
  requireSelfOrEditOthers(actor, userId);
  const ids = [...new Set(channelIds.filter((id) => id !== ''))];
  if (ids.length === 0) return { status: 'OK', last_viewed_at_times: {} };
  const channels = await deps.channels.findByIds(ids);
  if (channels.length === 0) throw badRequest('app.channel.update_last_viewed_at.app_error', 'Unable to update the last viewed at time.');
  const times: Record<string, number> = {};
  const now = deps.clock.now();
  const viewedTimes: Record<string, number> = {};
  const memberOf: Channel[] = [];
  for (const channel of channels) {
    const member = await deps.channelMembers.find(channel.id, userId);
    if (!member) continue;
    // The reference marks threads read only in the channels that had unreads (GetChannelsWithUnreadsAndWithMentions).
    if (member.msg_count < channel.total_msg_count || member.mention_count > 0) {
      memberOf.push(channel);
      viewedTimes[channel.id] = channel.last_post_at;
    }
    await deps.channelMembers.update(channel.id, userId, {
      last_viewed_at: Math.max(member.last_viewed_at, channel.last_post_at),
      msg_count: channel.total_msg_count,
      msg_count_root: channel.total_msg_count_root,
      mention_count: 0,
      mention_count_root: 0,
      urgent_mention_count: 0,
      last_update_at: now,
    });
    times[channel.id] = channel.last_post_at;
  }
  if (memberOf.length > 0) await readThreadsOnView(deps, userId, memberOf, collapsedThreadsSupported, now);
  const [first] = memberOf;
  if (first && deps.liveConfig.current().ServiceSettings.EnableChannelViewedMessages) {
    const value: ChannelViewedEvent = envelope('channel.viewed', { user_id: userId, channel_id: first.id, channel_times: viewedTimes });
    await deps.events.publish(Topics.realtimeEvents, [{ key: userId, value }]).catch(() => undefined);
  }
  return { status: 'OK', last_viewed_at_times: times };
}

import { notFound } from '@switchyard/errors';
import type { Actor } from '../actor';
import type { Deps } from '../ports';
import { readableChannel } from '../pins/pin-post.usecase';
import { requireSelfOrEditOthers } from './view-channel.usecase';

export interface ChannelUnread {
  readonly team_id: string;
  readonly channel_id: string;
  readonly msg_count: number;
  readonly mention_count: number;
  readonly mention_count_root: number;
  readonly urgent_mention_count: number;
  readonly msg_count_root: number;
}

const unreadNotFound = () => notFound('app.channel.get_unread.app_error', 'Unable to get the channel unread messages.');

/** `GET /users/{user_id}/channels/{channel_id}/unread` (§3.6): self or edit_other_users, read_channel; archived or not a member: 404. */
export async function channelUnread(deps: Deps, actor: Actor, userId: string, channelId: string): Promise<ChannelUnread> {
  requireSelfOrEditOthers(actor, userId);
  const channel = await readableChannel(deps, actor, channelId);
  if (channel.delete_at !== 0) throw unreadNotFound();
  const member = await deps.channelMembers.find(channelId, userId);
  if (!member) throw unreadNotFound();
  return {
    team_id: channel.team_id,
    channel_id: channel.id,
    msg_count: Math.max(0, channel.total_msg_count - member.msg_count),
    mention_count: member.mention_count,
    mention_count_root: member.mention_count_root ?? 0,
    urgent_mention_count: member.urgent_mention_count ?? 0,
    msg_count_root: Math.max(0, channel.total_msg_count_root - (member.msg_count_root ?? 0)),
  };
}

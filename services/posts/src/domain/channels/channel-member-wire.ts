import { channelMemberRoles, type ChannelMember } from '../entities';
import { channelNotifyPropsOf } from './channel-notify-props';

/** ChannelMember JSON (mattermost-wire.md §6): the REST answers and the `channel_member_updated` event. */
export function wireChannelMember(member: ChannelMember): Record<string, unknown> {
  return {
    channel_id: member.channel_id,
    user_id: member.user_id,
    roles: channelMemberRoles(member),
    last_viewed_at: member.last_viewed_at,
    msg_count: member.msg_count,
    mention_count: member.mention_count,
    mention_count_root: member.mention_count_root ?? 0,
    urgent_mention_count: member.urgent_mention_count ?? 0,
    msg_count_root: member.msg_count_root ?? 0,
    notify_props: channelNotifyPropsOf(member),
    last_update_at: member.last_update_at,
    scheme_guest: false,
    scheme_user: member.scheme_user,
    scheme_admin: member.scheme_admin,
    explicit_roles: member.explicit_roles,
  };
}

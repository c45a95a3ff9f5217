import type { ChannelsEvent, InternalChannel } from '@switchyard/contracts';
import type { MembershipCache } from '../membership-cache';
import { broadcast, type WsEvent } from '../ws-event';

/** The Channel JSON clients get when channels.events carries none (fields absent from the internal shape are zero). */
function wireChannel(channel: InternalChannel): Record<string, unknown> {
  return {
    id: channel.id,
    create_at: 0,
    update_at: 0,
    delete_at: channel.delete_at,
    team_id: channel.team_id,
    type: channel.type,
    display_name: channel.display_name,
    name: channel.name,
    header: '',
    purpose: '',
    last_post_at: 0,
    total_msg_count: 0,
    extra_update_at: 0,
    creator_id: channel.creator_id,
    scheme_id: null,
    props: null,
    group_constrained: null,
    shared: null,
    policy_id: null,
  };
}

/** The other user of a direct channel `<a>__<b>` ('' for a self-DM partner is the creator themself). */
function teammateOf(channel: InternalChannel): string {
  const [a = '', b = ''] = channel.name.split('__');
  return a === channel.creator_id ? b : a;
}

/**
 * channels.events → WebSocket events (mattermost-wire-2.md §1.6). A join or leave updates the channel's
 * cached member set before anything is delivered, so the events themselves already go to the new members
 * (without a lookup per join: docs/adr/0018); other events read the members again once after it.
 */
export function fromChannelsEvent(membership: Pick<MembershipCache, 'memberJoined' | 'memberLeft' | 'evictChannel'>, event: ChannelsEvent): WsEvent[] {
  const { channel, user_id: userId, actor_id: actorId } = event.payload;
  switch (event.type) {
    case 'channel.created':
      if (channel.type === 'D') {
        return [{ event: 'direct_added', data: { creator_id: channel.creator_id, teammate_id: teammateOf(channel) }, broadcast: broadcast({ channel_id: channel.id }) }];
      }
      if (channel.type === 'G') {
        const members = event.payload.member_ids;
        return members ? [{ event: 'group_added', data: { teammate_ids: JSON.stringify(members) }, broadcast: broadcast({ channel_id: channel.id }) }] : [];
      }
      if (channel.creator_id === '') return [];
      // The creator only: other team members get no event for a new channel.
      return [{ event: 'channel_created', data: { channel_id: channel.id, team_id: channel.team_id }, broadcast: broadcast({ user_id: channel.creator_id }) }];
    case 'channel.updated':
      membership.evictChannel(channel.id);
      return [{ event: 'channel_updated', data: { channel: JSON.stringify(event.payload.wire_channel ?? wireChannel(channel)) }, broadcast: broadcast({ channel_id: channel.id }) }];
    case 'channel.deleted':
      return [
        {
          event: 'channel_deleted',
          data: { channel_id: channel.id, delete_at: channel.delete_at },
          broadcast: channel.type === 'O' ? broadcast({ team_id: channel.team_id }) : broadcast({ channel_id: channel.id }),
        },
      ];
    case 'channel.member_added':
      if (userId === undefined) {
        membership.evictChannel(channel.id);
        return [];
      }
      membership.memberJoined(channel.id, userId);
      return [
        { event: 'user_added', data: { team_id: channel.team_id, user_id: userId }, broadcast: broadcast({ channel_id: channel.id, omit_users: { [userId]: true } }), membersAfterEvents: true },
        { event: 'user_added', data: { team_id: channel.team_id, user_id: userId }, broadcast: broadcast({ user_id: userId }) },
      ];
    case 'channel.member_removed':
      if (userId === undefined) {
        membership.evictChannel(channel.id);
        return [];
      }
      membership.memberLeft(channel.id, userId);
      return [
        { event: 'user_removed', data: { remover_id: actorId ?? userId, user_id: userId }, broadcast: broadcast({ channel_id: channel.id }), membersAfterEvents: true },
        { event: 'user_removed', data: { channel_id: channel.id, remover_id: actorId ?? userId }, broadcast: broadcast({ user_id: userId }) },
      ];
    default:
      return [];
  }
}

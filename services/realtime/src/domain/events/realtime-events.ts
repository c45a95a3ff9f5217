import type { ChannelMemberUpdatedEvent, ChannelViewedEvent, EmojiAddedEvent, PreferencesChangedEvent, PreferencesDeletedEvent, RealtimeEvent, StatusChangedEvent, ThreadEvent } from '@switchyard/contracts';
import { broadcast, type WsEvent } from '../ws-event';

/**
 * realtime.events → `ephemeral_message` (to the target user only), `open_dialog`, `typing`, `status_change`
 * (to the user only), and the collapsed-thread events `thread_updated`, `thread_follow_changed`,
 * `thread_read_changed` (to the user's own connections, `broadcast` {team_id, user_id} as the reference), and
 * `emoji_added` (to every connection), `preferences_changed`/`preferences_deleted` and `channel_member_updated` (to the user).
 */
export function fromRealtimeEvent(
  event: RealtimeEvent | StatusChangedEvent | ChannelViewedEvent | ChannelMemberUpdatedEvent | ThreadEvent | EmojiAddedEvent | PreferencesChangedEvent | PreferencesDeletedEvent,
): WsEvent[] {
  switch (event.type) {
    case 'preferences.changed':
    case 'preferences.deleted':
      return [
        {
          event: event.type === 'preferences.changed' ? 'preferences_changed' : 'preferences_deleted',
          data: { preferences: JSON.stringify(event.payload.preferences) },
          broadcast: broadcast({ user_id: event.payload.user_id }),
        },
      ];
    case 'emoji.added':
      return [{ event: 'emoji_added', data: { emoji: JSON.stringify(event.payload.emoji) }, broadcast: broadcast() }];
    case 'thread.updated': {
      const { user_id: userId, team_id: teamId, thread, previous_unread_mentions: mentions, previous_unread_replies: replies } = event.payload;
      return [{ event: 'thread_updated', data: { thread: JSON.stringify(thread), previous_unread_mentions: mentions, previous_unread_replies: replies }, broadcast: broadcast({ user_id: userId, team_id: teamId }) }];
    }
    case 'thread.follow_changed': {
      const { user_id: userId, team_id: teamId, ...data } = event.payload;
      return [{ event: 'thread_follow_changed', data: { thread_id: data.thread_id, state: data.state, reply_count: data.reply_count }, broadcast: broadcast({ user_id: userId, team_id: teamId }) }];
    }
    case 'thread.read_changed': {
      const { user_id: userId, team_id: teamId, ...data } = event.payload;
      // A channel's threads read (a channel view): the channel in the broadcast, only the time in data.
      if (data.thread_id === undefined && data.channel_id !== undefined) {
        return [{ event: 'thread_read_changed', data: { timestamp: data.timestamp }, broadcast: broadcast({ user_id: userId, channel_id: data.channel_id }) }];
      }
      return [{ event: 'thread_read_changed', data, broadcast: broadcast({ user_id: userId, team_id: teamId }) }];
    }
    case 'channel_member.updated':
      return [{ event: 'channel_member_updated', data: { channelMember: JSON.stringify(event.payload.channel_member) }, broadcast: broadcast({ user_id: event.payload.user_id }) }];
    case 'channel.viewed': {
      // The newest reference's event (an older posts' payload names one channel and no time: 0, "viewed").
      const times = event.payload.channel_times ?? { [event.payload.channel_id]: 0 };
      return [{ event: 'multiple_channels_viewed', data: { channel_times: { ...times } }, broadcast: broadcast({ user_id: event.payload.user_id }), droppable: true }];
    }
    case 'status.changed':
      return [{ event: 'status_change', data: { status: event.payload.status, user_id: event.payload.user_id }, broadcast: broadcast({ user_id: event.payload.user_id }), droppable: true }];
    case 'ephemeral.post':
      return [
        {
          event: 'ephemeral_message',
          data: { post: JSON.stringify(event.payload.post) },
          broadcast: broadcast({ user_id: event.payload.user_id, channel_id: event.payload.post.channel_id }),
        },
      ];
    case 'dialog.open':
      return [{ event: 'open_dialog', data: { dialog: JSON.stringify(event.payload.dialog) }, broadcast: broadcast({ user_id: event.payload.user_id }) }];
    case 'typing':
      return [
        {
          event: 'typing',
          data: { parent_id: event.payload.parent_id, user_id: event.payload.user_id },
          broadcast: broadcast({ channel_id: event.payload.channel_id, omit_users: { [event.payload.user_id]: true } }),
          droppable: true,
        },
      ];
    default:
      return [];
  }
}

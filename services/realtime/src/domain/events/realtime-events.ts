import type { ChannelViewedEvent, RealtimeEvent, StatusChangedEvent } from '@switchyard/contracts';
import { broadcast, type WsEvent } from '../ws-event';

/** realtime.events → `ephemeral_message` (to the target user only), `open_dialog`, `typing`, `status_change` (to the user only). */
export function fromRealtimeEvent(event: RealtimeEvent | StatusChangedEvent | ChannelViewedEvent): WsEvent[] {
  switch (event.type) {
    case 'channel.viewed':
      return [{ event: 'channel_viewed', data: { channel_id: event.payload.channel_id }, broadcast: broadcast({ user_id: event.payload.user_id }), droppable: true }];
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

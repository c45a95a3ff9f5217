import type { BusMessage, MessageHandler } from '@switchyard/event-bus';

export interface Evictions {
  channel(channelId: string, userId?: string): void;
  user(userId: string): void;
}

/** channels.events and users.events → drop cached channels, memberships and users at once. */
export function cacheEvictionConsumer(evict: Evictions): MessageHandler {
  return async (message: BusMessage): Promise<void> => {
    const event = message.value as { payload?: { channel?: { id?: unknown }; user_id?: unknown; userId?: unknown } } | undefined;
    const payload = event?.payload;
    if (!payload) return;
    if (typeof payload.channel?.id === 'string') evict.channel(payload.channel.id, typeof payload.user_id === 'string' ? payload.user_id : undefined);
    if (typeof payload.userId === 'string') evict.user(payload.userId);
  };
}

import { randomUUID } from 'node:crypto';
import { Topics } from '@switchyard/contracts';
import type { EventBus, Subscription } from '@switchyard/event-bus';

/**
 * channels.events → `evict(channelId)` for every channel event (a broadcast consumer: one group per
 * instance, ADR 0002), so a channel another replica archived or changed leaves this one's cache.
 */
export function subscribeChannelCacheEviction(bus: EventBus, evict: (channelId: string) => void): Promise<Subscription> {
  return bus.subscribe({
    groupId: `posts-channel-cache-${randomUUID()}`,
    topics: [Topics.channelsEvents],
    startAt: 'latest',
    handler: async (message) => {
      const channelId = (message.value as { payload?: { channel?: { id?: unknown } } } | null)?.payload?.channel?.id;
      if (typeof channelId === 'string') evict(channelId);
    },
  });
}

import { randomUUID } from 'node:crypto';
import { Topics } from '@switchyard/contracts';
import type { EventBus, Subscription } from '@switchyard/event-bus';

/**
 * users.events → `evict(userId)` for every user event (a broadcast consumer: one group per instance,
 * ADR 0002), so a user changed through another replica is not answered from this one's read cache.
 * Team events (keyed by team) carry the member's id too and evict it, which is harmless.
 */
export function subscribeUserCacheEviction(bus: EventBus, evict: (userId: string) => void): Promise<Subscription> {
  return bus.subscribe({
    groupId: `users-bots-user-cache-${randomUUID()}`,
    topics: [Topics.usersEvents],
    startAt: 'latest',
    handler: async (message) => {
      const userId = (message.value as { payload?: { userId?: unknown } } | null)?.payload?.userId;
      if (typeof userId === 'string') evict(userId);
    },
  });
}

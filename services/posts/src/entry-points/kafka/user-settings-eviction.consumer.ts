import { randomUUID } from 'node:crypto';
import { Topics } from '@switchyard/contracts';
import type { EventBus, Subscription } from '@switchyard/event-bus';

/**
 * users.events → `evict(userId)` for every event naming a user (a broadcast consumer: one group per instance, ADR 0002),
 * so a user's changed notify props (`PUT /users/{id}/patch`: mention keys, first name, `channel`, `comments`) count on
 * the next post instead of after the mention settings cache's TTL, and a renamed user's old `@name` / `from:` stops
 * naming them at once. Team events name a member too: evicting is harmless.
 */
export function subscribeUserSettingsEviction(bus: EventBus, evict: (userId: string) => void): Promise<Subscription> {
  return bus.subscribe({
    groupId: `posts-user-settings-${randomUUID()}`,
    topics: [Topics.usersEvents],
    startAt: 'latest',
    handler: async (message) => {
      const userId = (message.value as { payload?: { userId?: unknown } } | null)?.payload?.userId;
      if (typeof userId === 'string') evict(userId);
    },
  });
}

import { randomUUID } from 'node:crypto';
import { Topics } from '@switchyard/contracts';
import type { EventBus, Subscription } from '@switchyard/event-bus';
import { withDefaults } from '@switchyard/system-config';
import type { ConfigRepository, LiveConfig } from '../../domain/ports';

/**
 * Keeps this instance's live config in step with changes made through other instances of the service.
 * A broadcast consumer (one group per instance, ADR 0002). It reloads the stored document rather than
 * applying the event's payload, so a late event can never roll the live config back.
 */
export async function subscribeConfigUpdates(bus: EventBus, store: ConfigRepository, live: LiveConfig): Promise<Subscription> {
  return bus.subscribe({
    groupId: `users-bots-config-${randomUUID()}`,
    topics: [Topics.configEvents],
    startAt: 'latest',
    handler: async () => {
      const stored = await store.load();
      if (stored) live.replace(withDefaults(stored));
    },
  });
}

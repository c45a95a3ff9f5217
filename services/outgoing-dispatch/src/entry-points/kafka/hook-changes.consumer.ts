import { randomUUID } from 'node:crypto';
import { Topics } from '@switchyard/contracts';
import type { EventBus, MessageHandler, Subscription } from '@switchyard/event-bus';
import { HOOK_CHANGED_MESSAGE_TYPE } from '../../adapters/bus/bus-publishers';

/** hook.changed → `evictTeam(team_id)`; other messages of the topic are not for this consumer. */
export function hookChangesHandler(evictTeam: (teamId: string) => void): MessageHandler {
  return async (message) => {
    const value = message.value as { type?: unknown; payload?: { team_id?: unknown } } | null;
    if (value?.type !== HOOK_CHANGED_MESSAGE_TYPE) return;
    const teamId = value.payload?.team_id;
    if (typeof teamId === 'string') evictTeam(teamId);
  };
}

/**
 * A broadcast consumer (one group per instance and start, ADR 0002) of hook changes, so a hook created or
 * changed through another replica fires here without waiting for this replica's cache to expire.
 */
export function subscribeHookChanges(bus: EventBus, evictTeam: (teamId: string) => void): Promise<Subscription> {
  return bus.subscribe({ groupId: `outgoing-dispatch-hooks-${randomUUID()}`, topics: [Topics.outgoingDeliveries], startAt: 'latest', handler: hookChangesHandler(evictTeam) });
}

import { Topics } from '@switchyard/contracts';
import type { EventBus, MessageHandler, Subscription } from '@switchyard/event-bus';
import { claimAndAttempt } from '../../domain/delivery/attempt-delivery.usecase';
import type { Deps } from '../../domain/ports';

export const DELIVERIES_GROUP = 'outgoing-dispatch-deliveries';

/**
 * outgoing.deliveries → claim and attempt. Members of the group share the partitions (keyed by hook id);
 * a delivery somebody else holds, or that is not due, is skipped (its owner or the scheduler does it).
 */
export function deliveryHandler(deps: Deps): MessageHandler {
  return async (message) => {
    const payload = (message.value as { payload?: { delivery_id?: unknown } } | null)?.payload;
    if (typeof payload?.delivery_id !== 'string') return;
    await claimAndAttempt(deps, payload.delivery_id);
  };
}

export function subscribeDeliveries(bus: EventBus, deps: Deps): Promise<Subscription> {
  return bus.subscribe({ groupId: DELIVERIES_GROUP, topics: [Topics.outgoingDeliveries], handler: deliveryHandler(deps) });
}

import { envelope, ephemeralPostMessage, Topics, type OpenDialogEvent, type WirePost } from '@switchyard/contracts';
import type { EventPublisher } from '@switchyard/event-bus';
import type { Delivery } from '../../domain/entities';
import type { ClientEvents, DeliveryQueue } from '../../domain/ports';

/** The message on outgoing.deliveries: the ids of one hook's ready deliveries (the records hold everything else). */
export interface DeliveryMessage {
  readonly delivery_ids: readonly string[];
  readonly hook_id: string;
}

export const DELIVERY_MESSAGE_TYPE = 'delivery.ready';

/** outgoing.deliveries, keyed by hook id (one hook's deliveries stay on one partition). */
export class BusDeliveryQueue implements DeliveryQueue {
  public constructor(private readonly bus: EventPublisher) {}

  public async enqueue(deliveries: readonly Pick<Delivery, 'id' | 'hookId'>[]): Promise<void> {
    if (deliveries.length === 0) return;
    // One message per hook (all its callback URLs for this post): fewer messages and commits per partition.
    const byHook = new Map<string, string[]>();
    for (const d of deliveries) byHook.set(d.hookId, [...(byHook.get(d.hookId) ?? []), d.id]);
    await this.bus.publish(
      Topics.outgoingDeliveries,
      [...byHook].map(([hookId, ids]) => ({ key: hookId, value: envelope<string, DeliveryMessage>(DELIVERY_MESSAGE_TYPE, { delivery_ids: ids, hook_id: hookId }) })),
    );
  }
}

/** realtime.events, keyed by the target user: every realtime replica delivers to that user's sockets. */
export class BusClientEvents implements ClientEvents {
  public constructor(private readonly bus: EventPublisher) {}

  public async ephemeralPost(userId: string, post: WirePost): Promise<void> {
    await this.bus.publish(Topics.realtimeEvents, [ephemeralPostMessage(envelope('ephemeral.post', { user_id: userId, post }))]);
  }

  public async openDialog(userId: string, dialog: { readonly trigger_id: string; readonly url: string; readonly dialog: Readonly<Record<string, unknown>> }): Promise<void> {
    const event: OpenDialogEvent = envelope('dialog.open', { user_id: userId, dialog });
    await this.bus.publish(Topics.realtimeEvents, [{ key: userId, value: event }]);
  }
}

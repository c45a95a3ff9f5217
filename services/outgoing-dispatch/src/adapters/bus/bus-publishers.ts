import { envelope, Topics, type CreatePostCommandPayload } from '@switchyard/contracts';
import type { EventPublisher } from '@switchyard/event-bus';
import type { Delivery } from '../../domain/entities';
import type { DeliveryQueue, PostCommands } from '../../domain/ports';

/** The message on outgoing.deliveries: just the delivery id (the record holds everything else). */
export interface DeliveryMessage {
  readonly delivery_id: string;
  readonly hook_id: string;
}

export const DELIVERY_MESSAGE_TYPE = 'delivery.ready';

/** outgoing.deliveries, keyed by hook id (one hook's deliveries stay on one partition). */
export class BusDeliveryQueue implements DeliveryQueue {
  public constructor(private readonly bus: EventPublisher) {}

  public async enqueue(deliveries: readonly Pick<Delivery, 'id' | 'hookId'>[]): Promise<void> {
    if (deliveries.length === 0) return;
    await this.bus.publish(
      Topics.outgoingDeliveries,
      deliveries.map((d) => ({ key: d.hookId, value: envelope<string, DeliveryMessage>(DELIVERY_MESSAGE_TYPE, { delivery_id: d.id, hook_id: d.hookId }) })),
    );
  }
}

/** posts.commands, keyed by channel id; the envelope id is the post id (posts is idempotent by it). */
export class BusPostCommands implements PostCommands {
  public constructor(private readonly bus: EventPublisher) {}

  public async createPosts(commands: readonly CreatePostCommandPayload[]): Promise<void> {
    if (commands.length === 0) return;
    await this.bus.publish(
      Topics.postsCommands,
      commands.map((c) => ({ key: c.post.channel_id, value: envelope('post.create', c, 1, c.post.id) })),
    );
  }
}

import { Topics } from '@switchyard/contracts';
import type { EventBus, MessageHandler, Subscription } from '@switchyard/event-bus';
import { claimAndAttempt } from '../../domain/delivery/attempt-delivery.usecase';
import type { Deps } from '../../domain/ports';
import { DISPATCH_PARTITIONS_AT_ONCE } from './post-created.consumer';

export const DELIVERIES_GROUP = 'outgoing-dispatch-deliveries';

/**
 * Bounds the attempts running at once. A message is acknowledged once its delivery is claimed: the
 * durable record (with its lease) is the hand-off, so one hook's deliveries (one partition) run in
 * parallel instead of one callback round trip after the other. If the process dies mid-attempt, the
 * lease runs out and the scheduler of any instance takes the record over.
 */
export class AttemptPool {
  private readonly running = new Set<Promise<unknown>>();

  public constructor(private readonly size: number) {}

  public async run(task: () => Promise<unknown>): Promise<void> {
    while (this.running.size >= this.size) await Promise.race(this.running);
    const promise = task()
      .catch(() => undefined)
      .finally(() => this.running.delete(promise));
    this.running.add(promise);
  }

  public async drain(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }
}

/**
 * outgoing.deliveries → claim and attempt. Members of the group share the partitions (keyed by hook id);
 * a delivery somebody else holds, or that is not due, is skipped (its owner or the scheduler does it).
 */
export function deliveryHandler(deps: Deps, pool: AttemptPool): MessageHandler {
  return async (message) => {
    const payload = (message.value as { payload?: { delivery_ids?: unknown; delivery_id?: unknown } } | null)?.payload;
    const ids = Array.isArray(payload?.delivery_ids) ? payload.delivery_ids : [payload?.delivery_id];
    for (const deliveryId of ids) {
      if (typeof deliveryId !== 'string') continue;
      await pool.run(async () => {
        try {
          await claimAndAttempt(deps, deliveryId);
        } catch (error) {
          deps.logger.warn('delivery attempt failed unexpectedly; it is retried when its claim is released', { delivery_id: deliveryId, error: String(error) });
        }
      });
    }
  };
}

export async function subscribeDeliveries(bus: EventBus, deps: Deps, pool: AttemptPool): Promise<Subscription> {
  // Its messages are handed to the pool at once; several partitions at a time keep one busy hook's
  // partition from holding up the others while the pool is full.
  const subscription = await bus.subscribe({ groupId: DELIVERIES_GROUP, topics: [Topics.outgoingDeliveries], handler: deliveryHandler(deps, pool), partitionsAtOnce: DISPATCH_PARTITIONS_AT_ONCE });
  return {
    stop: async () => {
      await subscription.stop();
      await pool.drain();
    },
  };
}

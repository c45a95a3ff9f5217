import type { Delivery } from '../entities';
import { hookErrors } from '../errors';
import { accessibleHook, type Actor } from '../hooks/hook-access';
import type { Deps } from '../ports';

/**
 * `POST /hooks/outgoing/{hook_id}/deliveries/{delivery_id}/redeliver`: queued again now with a fresh
 * retry budget; the same delivery id (`webhook-id`), and the same reply post ids, so a receiver that
 * already answered does not get its reply posted twice.
 */
export async function redeliver(deps: Deps, actor: Actor, hookId: string, deliveryId: string): Promise<Delivery> {
  await accessibleHook(deps, actor, hookId);
  const existing = await deps.deliveries.findById(deliveryId);
  if (!existing || existing.hookId !== hookId) throw hookErrors.deliveryNotFound();
  const now = deps.clock.now();
  const updated = await deps.deliveries.update(deliveryId, { status: 'pending', tries: 0, nextAttemptAt: now, updateAt: now, lastError: '' });
  if (!updated) throw hookErrors.deliveryNotFound();
  try {
    await deps.queue.enqueue([updated]);
  } catch (error) {
    deps.logger.warn('outgoing.deliveries publish failed; the scheduler will pick the delivery up', { error: String(error) });
  }
  deps.wakeAt(now);
  return updated;
}

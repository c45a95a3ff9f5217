import type { Delivery } from '../entities';
import { hookErrors } from '../errors';
import { accessibleHook, type Actor } from '../hooks/hook-access';
import type { Deps } from '../ports';

/**
 * `POST /hooks/outgoing/{hook_id}/deliveries/{delivery_id}/redeliver`: due again now with a fresh
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
  // Due now: this instance's scheduler claims it at once (or any instance's, if this one stops).
  deps.wakeAt(now);
  return updated;
}

/**
 * `POST /hooks/outgoing/{hook_id}/deliveries/redeliver_failed?since=<ms>`: every failed or dead delivery
 * of the hook created at or after `since` is queued again (README "recover every failure since a time").
 */
export async function redeliverFailed(deps: Deps, actor: Actor, hookId: string, since: number): Promise<Delivery[]> {
  await accessibleHook(deps, actor, hookId);
  const now = deps.clock.now();
  const requeued: Delivery[] = [];
  for (let page = 0; ; page += 1) {
    const batch = await deps.deliveries.listByHook(hookId, { page, perPage: 200 });
    for (const delivery of batch) {
      if (delivery.createAt < since || (delivery.status !== 'failed' && delivery.status !== 'dead')) continue;
      const updated = await deps.deliveries.update(delivery.id, { status: 'pending', tries: 0, nextAttemptAt: now, updateAt: now, lastError: '' });
      if (updated) requeued.push(updated);
    }
    if (batch.length < 200 || (batch.at(-1)?.createAt ?? 0) < since) break;
  }
  if (requeued.length > 0) deps.wakeAt(now);
  return requeued;
}

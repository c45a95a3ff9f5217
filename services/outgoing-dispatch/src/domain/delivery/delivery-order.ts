import type { Delivery } from '../entities';
import type { Deps } from '../ports';

/** A waiting delivery asks again after this long even when nobody wakes it (a wake-up lost with a crashed instance). */
export const ORDER_RECHECK_MS = 30_000;

/**
 * Strict order across retries, bounded (ADR 0013 addendum): a delivery of a hook that hears more than
 * `posted` is not attempted while an earlier delivery of the same (hook, channel, URL) is still pending or
 * failed, for at most `DeliverySettings.OrderHoldSeconds` after it was created; then it goes anyway (an
 * unreachable receiver must not hold a channel's events for the whole retry schedule). The time to ask
 * again, or undefined when it may go now. No attempt is counted while it waits.
 */
export async function orderWaitUntil(deps: Deps, delivery: Delivery, now: number): Promise<{ until: number; earlierId: string } | undefined> {
  const holdMs = deps.liveConfig.current().DeliverySettings.OrderHoldSeconds * 1000;
  if (!(holdMs > 0) || delivery.channelId === '' || now >= delivery.createAt + holdMs) return undefined;
  const earlier = await deps.deliveries.earliestWaitingBefore(delivery, delivery.createAt);
  if (!earlier) return undefined;
  // Woken early by the earlier one's end (wakeNextInChain); this is the fallback.
  return { until: Math.min(delivery.createAt + holdMs, Math.max(now, earlier.nextAttemptAt) + ORDER_RECHECK_MS), earlierId: earlier.id };
}

/**
 * An ordered delivery ended (delivered or dead): the next one waiting after it in its (hook, channel, URL)
 * is due now, instead of at its fallback time. An earlier one still waiting is never woken: it is in its
 * retry backoff, which a later delivery's end must not cut short.
 */
export async function wakeNextInChain(deps: Deps, delivery: Delivery): Promise<void> {
  if (delivery.channelId === '') return;
  try {
    const next = await deps.deliveries.earliestWaitingBefore(delivery, Number.MAX_SAFE_INTEGER);
    const now = deps.clock.now();
    // An earlier one still waiting is in its own backoff (this one went when its hold ran out): it keeps its
    // schedule, and what comes after this one waits for it, not for this one.
    if (!next || next.createAt < delivery.createAt || next.nextAttemptAt <= now) return;
    await deps.deliveries.update(next.id, { nextAttemptAt: now });
    deps.wakeAt(now);
  } catch (error) {
    deps.logger.warn('next ordered delivery not woken (it asks again by itself)', { delivery_id: delivery.id, error: String(error) });
  }
}

import { attemptReleasingOnError, leaseMs } from '../delivery/attempt-delivery.usecase';
import { isOrderedHook, type Delivery, type OutgoingHook } from '../entities';
import type { Deps } from '../ports';

export interface Planned {
  readonly delivery: Delivery;
  readonly hook: OutgoingHook;
}

/**
 * Attempts of hooks that hear more than `posted`, chained per (hook, channel, URL): an event's first
 * attempt starts only once the previous event's first attempt of that chain has ended, so a receiver sees
 * one channel's events in order (one dispatcher handles a channel: the bus is keyed by channel). Hooks
 * that only hear `posted` keep starting every attempt at once, as before.
 */
const chains = new Map<string, { tail: Promise<unknown>; length: number }>();

/** Whether the hook's deliveries are ordered (it hears more than the reference's `posted`). */
export const isOrdered = (hook: OutgoingHook): boolean => isOrderedHook(hook);

function chainKey(delivery: Delivery): string {
  return `${delivery.hookId}\u0000${delivery.channelId}\u0000${delivery.url}`;
}

function chained(key: string, task: () => Promise<unknown>): Promise<unknown> {
  const chain = chains.get(key) ?? { tail: Promise.resolve(), length: 0 };
  chain.length += 1;
  const run = chain.tail.then(task, task);
  chain.tail = run.catch(() => undefined).finally(() => {
    chain.length -= 1;
    if (chain.length === 0 && chains.get(key) === chain) chains.delete(key);
  });
  chains.set(key, chain);
  return run;
}

/** The last createAt given in each chain: ordered deliveries of one chain never share a millisecond (the store orders them by it). */
const lastCreated = new Map<string, number>();

function orderedCreateAt(key: string, createAt: number): number {
  const at = Math.max(createAt, (lastCreated.get(key) ?? 0) + 1);
  lastCreated.delete(key);
  lastCreated.set(key, at);
  if (lastCreated.size > 10_000) lastCreated.delete(lastCreated.keys().next().value as string);
  return at;
}

/** How many attempts wait before a new one in this chain (its lease covers them). */
function waitingIn(key: string): number {
  return chains.get(key)?.length ?? 0;
}

/**
 * Stores the planned deliveries already claimed by this instance and attempts them here (ADR 0013): the
 * deliveries of one call (one event), up to the instance's attempt capacity at a time, are stored with one
 * write, then each starts as soon as an attempt slot is free (a busy instance frees one slot at a time, and
 * storing each delivery alone then cost a store write each; ADR 0037). Those that got a slot at once are
 * claimed for one lease; those waiting for one for two leases, which covers a whole round of attempts ahead
 * of them running into the request timeout. Returns the deliveries this call stored (a redelivered event
 * stores nothing new and attempts nothing).
 */
export async function startDeliveries(deps: Deps, planned: readonly Planned[]): Promise<Delivery[]> {
  const stored: Delivery[] = [];
  for (let from = 0; from < planned.length; ) {
    const group = planned.slice(from, from + deps.attempts.capacity);
    from += group.length;
    let reservation = await deps.attempts.reserve(group.length);
    try {
      const now = deps.clock.now();
      const lease = leaseMs(deps);
      const claimed = group.map((p, i) => {
        const leaseFor = i < reservation.size ? lease : 2 * lease;
        if (!isOrdered(p.hook)) return { delivery: { ...p.delivery, nextAttemptAt: now, claimedBy: deps.instanceId, claimUntil: now + leaseFor }, hook: p.hook };
        const key = chainKey(p.delivery);
        const claim = { nextAttemptAt: now, claimedBy: deps.instanceId, claimUntil: now + leaseFor * (1 + waitingIn(key)) };
        return { delivery: { ...p.delivery, ...claim, createAt: orderedCreateAt(key, p.delivery.createAt) }, hook: p.hook };
      });
      const inserted = await deps.deliveries.insertAllIfAbsent(claimed.map((c) => c.delivery));
      const toStart = claimed.filter((c) => inserted.has(c.delivery.id));
      for (const [i, { delivery, hook }] of toStart.entries()) {
        if (reservation.size === 0) {
          reservation.release();
          reservation = await deps.attempts.reserve(toStart.length - i);
        }
        const attempt = (): Promise<unknown> => attemptReleasingOnError(deps, delivery, hook);
        reservation.run(isOrdered(hook) ? () => chained(chainKey(delivery), attempt) : attempt);
        stored.push(delivery);
      }
    } finally {
      reservation.release();
    }
  }
  return stored;
}

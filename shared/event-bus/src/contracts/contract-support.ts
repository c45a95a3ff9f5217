import { setTimeout as delay } from 'node:timers/promises';
import type { EventBus } from '../ports';

/** What the event-bus contract suites run against: one adapter and the means to observe its broker. */
export interface ContractHarness {
  readonly bus: EventBus;
  /** Makes sure topics exist with the given partition count (no-op for adapters that create them). */
  ensureTopics(topics: readonly string[], partitions: number): Promise<void>;
  /** A second, independent client of the same broker, to act as another process. */
  newClient(): Promise<EventBus>;
  /**
   * Resolves once `members` members of the group hold partitions: an observable state of a broker (Kafka:
   * the group is Stable with every member assigned). Leave it out when members are assigned at subscribe.
   */
  groupJoined?(groupId: string, members: number): Promise<void>;
  /** Resolves once the group has committed `count` messages of `topic`. Leave it out when handling commits. */
  committed?(groupId: string, topic: string, count: number): Promise<void>;
  cleanup(): Promise<void>;
}

/** Polls `predicate` every 10 ms until it holds; rejects after `timeoutMs`. */
export async function waitFor(predicate: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(10);
  }
}

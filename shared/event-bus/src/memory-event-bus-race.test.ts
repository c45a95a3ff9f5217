import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { MemoryEventBus } from './memory-event-bus';

/** How long a published follow-up may take to be handled; generous (a passing run never waits it out). */
const DELIVERY_DEADLINE_MS = 5_000;

async function hops(n: number): Promise<void> {
  for (let i = 0; i < n; i += 1) await Promise.resolve();
}

test('when a message is published while a partition pump is winding down, then it is still delivered without a later message', async () => {
  const stranded: number[] = [];
  for (let n = 0; n <= 12; n += 1) {
    const bus = new MemoryEventBus({ defaultPartitions: 1 });
    const seen: string[] = [];
    let followUp: Promise<void> | undefined;
    await bus.subscribe({
      groupId: 'g',
      topics: ['t'],
      handler: async (message) => {
        const value = message.value as string;
        seen.push(value);
        // Publish the follow-up a few microtasks after this handler returns: the window in which the pump
        // has found nothing more to read but has not yet released the partition.
        if (value === 'first') followUp = hops(n).then(() => bus.publish('t', [{ key: 'k', value: 'second' }]));
      },
    });
    await bus.publish('t', [{ key: 'k', value: 'first' }]);
    // The follow-up is stored once its publish resolves; from then on it must be handled, within a deadline
    // of seconds (not a count of short sleeps, which a loaded box can exhaust before the pump runs).
    for (const deadline = Date.now() + DELIVERY_DEADLINE_MS; !(followUp && seen.includes('second')) && Date.now() < deadline; ) await delay(5);
    await followUp;
    if (!seen.includes('second')) stranded.push(n);
    await bus.close();
  }
  assert.deepEqual(stranded, [], `follow-up messages stranded after ${stranded.join(', ')} microtask hops`);
});

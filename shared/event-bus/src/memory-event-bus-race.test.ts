import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { MemoryEventBus } from './memory-event-bus';

async function hops(n: number): Promise<void> {
  for (let i = 0; i < n; i += 1) await Promise.resolve();
}

test('when a message is published while a partition pump is winding down, then it is still delivered without a later message', async () => {
  const stranded: number[] = [];
  for (let n = 0; n <= 12; n += 1) {
    const bus = new MemoryEventBus({ defaultPartitions: 1 });
    const seen: string[] = [];
    await bus.subscribe({
      groupId: 'g',
      topics: ['t'],
      handler: async (message) => {
        const value = message.value as string;
        seen.push(value);
        // Publish the follow-up a few microtasks after this handler returns: the window in which the pump
        // has found nothing more to read but has not yet released the partition.
        if (value === 'first') void hops(n).then(() => bus.publish('t', [{ key: 'k', value: 'second' }]));
      },
    });
    await bus.publish('t', [{ key: 'k', value: 'first' }]);
    for (let waited = 0; waited < 500 && !seen.includes('second'); waited += 10) await delay(10);
    if (!seen.includes('second')) stranded.push(n);
    await bus.close();
  }
  assert.deepEqual(stranded, [], `follow-up messages stranded after ${stranded.join(', ')} microtask hops`);
});

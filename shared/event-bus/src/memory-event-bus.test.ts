import { it } from 'node:test';
import assert from 'node:assert/strict';
import { eventBusContract } from './contracts/event-bus.contract';
import { MemoryEventBus } from './memory-event-bus';

eventBusContract('memory', async () => {
  const bus = new MemoryEventBus({ retryDelayMs: 1 });
  return {
    bus,
    ensureTopics: async () => undefined,
    // Members of one process share the broker: a second client is the same in-process bus.
    newClient: async () => ({
      publish: (topic, messages) => bus.publish(topic, messages),
      subscribe: (options) => bus.subscribe(options),
      health: () => bus.health(),
      close: async () => undefined,
    }),
    cleanup: () => bus.close(),
  };
});

/** Counts JSON.parse calls until `restore()` (the bus parses each stored message for its groups). */
function countJsonParses(): { readonly count: number; restore(): void } {
  const parse = JSON.parse;
  const counter = {
    count: 0,
    restore: () => {
      JSON.parse = parse;
    },
  };
  JSON.parse = ((text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => {
    counter.count += 1;
    return parse(text, reviver);
  }) as typeof JSON.parse;
  return counter;
}

it('when several groups handle a message, then it is parsed once per partition and each group gets the same frozen value', async () => {
  const bus = new MemoryEventBus({ retryDelayMs: 1 });
  const parses = countJsonParses();
  try {
    const seen: unknown[][] = [[], [], []];
    let settle: () => void = () => undefined;
    const all = new Promise<void>((resolve) => (settle = resolve));
    let handled = 0;
    for (const [group, values] of seen.entries()) {
      await bus.subscribe({
        groupId: `g${group}`,
        topics: ['t'],
        handler: async (message) => {
          values.push(message.value);
          handled += 1;
          if (handled === 6) settle();
        },
      });
    }
    await bus.publish('t', [
      { key: 'k', value: { n: 1, nested: { list: [1] } } },
      { key: 'k', value: { n: 2, nested: { list: [2] } } },
    ]);
    await all;
    assert.equal(parses.count, 2, 'one parse per message, not one per group');
    const [first, second, third] = seen;
    assert.deepEqual(first, [{ n: 1, nested: { list: [1] } }, { n: 2, nested: { list: [2] } }]);
    assert.equal(second?.[0], first?.[0]);
    assert.equal(third?.[1], first?.[1]);
    const value = first?.[0] as { nested: { list: number[] } };
    assert.throws(() => value.nested.list.push(3), TypeError, 'a handler cannot change what the other groups read');
  } finally {
    parses.restore();
    await bus.close();
  }
});

it('when one group takes batches and another takes messages one by one, then each message is still parsed once', async () => {
  const bus = new MemoryEventBus({ retryDelayMs: 1 });
  const parses = countJsonParses();
  try {
    const batched: unknown[] = [];
    const single: unknown[] = [];
    await bus.subscribe({ groupId: 'batched', topics: ['t'], handler: async () => undefined, batchHandler: async (ms) => void batched.push(...ms.map((m) => m.value)) });
    await bus.subscribe({ groupId: 'single', topics: ['t'], handler: async (m) => void single.push(m.value) });
    await bus.publish('t', Array.from({ length: 20 }, (_, n) => ({ key: 'k', value: { n } })));
    for (let i = 0; i < 100 && (batched.length < 20 || single.length < 20); i += 1) await new Promise((r) => setImmediate(r));
    assert.equal(single.length, 20);
    assert.equal(parses.count, 20, 'one parse per message, not one per group');
    assert.deepEqual(batched, single);
    assert.equal(batched[7], single[7], 'the same frozen value');
  } finally {
    parses.restore();
    await bus.close();
  }
});

it('when maxBatchSize is not a number, then every message still reaches the batch handler, in order', async () => {
  const bus = new MemoryEventBus({ retryDelayMs: 1 });
  try {
    const got: number[] = [];
    await bus.subscribe({ groupId: 'g', topics: ['t'], maxBatchSize: Number.NaN, handler: async () => undefined, batchHandler: async (ms) => void got.push(...ms.map((m) => (m.value as { n: number }).n)) });
    await bus.publish('t', [0, 1, 2].map((n) => ({ key: 'k', value: { n } })));
    for (let i = 0; i < 100 && got.length < 3; i += 1) await new Promise((r) => setImmediate(r));
    assert.deepEqual(got, [0, 1, 2]);
  } finally {
    await bus.close();
  }
});

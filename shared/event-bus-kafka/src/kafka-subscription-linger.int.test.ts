import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { waitFor } from '@switchyard/event-bus/contract';
import { KafkaEventBus } from './index';
import { SKIP_WITHOUT_BROKER, testBrokers, testBusOptions } from './test-support/broker';

// A subscription's own fetchLingerMs (SubscribeOptions): a group whose messages may wait fetches less often.

describe('KafkaEventBus: a subscription\'s own fetch linger', { skip: testBrokers.length === 0 ? SKIP_WITHOUT_BROKER : false }, () => {
  const run = randomUUID().slice(0, 8);
  let bus: KafkaEventBus;

  before(() => {
    bus = new KafkaEventBus(testBusOptions('linger-sub'));
  });
  after(async () => {
    await bus.close();
  });

  it('when a subscription asks for a long linger, then after a fetch that brought messages it waits that long (the bus default is 5 ms), and stop() ends the wait at once', async () => {
    const t = `linger.${run}.own`;
    await bus.ensureTopics([t], 1);
    const handledAt = new Map<string, number>();
    let publishB: Promise<void> | undefined;
    const sub = await bus.subscribe({
      groupId: `g-${t}`,
      topics: [t],
      fetchLingerMs: 5000,
      handler: async (m) => {
        handledAt.set(m.key, Date.now());
        if (m.key === 'a') publishB = bus.publish(t, [{ key: 'b', value: {} }]);
      },
    });
    await bus.publish(t, [{ key: 'a', value: {} }]);
    await waitFor(() => handledAt.has('b'), 20_000, 'b');
    await publishB;
    const gap = (handledAt.get('b') ?? 0) - (handledAt.get('a') ?? 0);
    assert.ok(gap >= 4000, `b handled ${gap} ms after a: the subscription did not linger`);
    // b's fetch is followed by a linger of 5 s: stop() does not wait for its end (its commit and leave get 4 s,
    // room for a loaded box; a stop that waited for the linger would take about 5).
    const stopping = Date.now();
    await sub.stop();
    assert.ok(Date.now() - stopping < 4000, `stop() took ${Date.now() - stopping} ms: it waited for the linger`);
  });

  it('when the linger is a function, then it is asked before each wait (undefined: the bus default), and wake() ends a long wait at once', async () => {
    const t = `linger.${run}.woken`;
    await bus.ensureTopics([t], 1);
    const handledAt = new Map<string, number>();
    let long = true;
    let publishB: Promise<void> | undefined;
    const sub = await bus.subscribe({
      groupId: `g-${t}`,
      topics: [t],
      fetchLingerMs: () => (long ? 5000 : undefined),
      handler: async (m) => {
        handledAt.set(m.key, Date.now());
        if (m.key === 'a') publishB = bus.publish(t, [{ key: 'b', value: {} }]);
      },
    });
    await bus.publish(t, [{ key: 'a', value: {} }]);
    await waitFor(() => handledAt.has('a'), 20_000, 'a');
    await publishB;
    // The member lingers 5 s after a's fetch; someone starts waiting for b.
    await new Promise((resolve) => setTimeout(resolve, 300));
    long = false;
    sub.wake?.();
    await waitFor(() => handledAt.has('b'), 20_000, 'b');
    const gap = (handledAt.get('b') ?? 0) - (handledAt.get('a') ?? 0);
    assert.ok(gap < 2500, `b handled ${gap} ms after a: wake() did not end the linger`);
    await sub.stop();
  });
});

import { it } from 'node:test';
import assert from 'node:assert/strict';
import { deadLetterTopic, type BusMessage } from '../ports';
import { waitFor, type ContractHarness } from './contract-support';

const n = (m: BusMessage): number => (m.value as { n: number }).n;
const numbered = (from: number, count: number, headers?: Record<string, string>) =>
  Array.from({ length: count }, (_, i) => ({ key: 'same', value: { n: from + i }, ...(headers ? { headers } : {}) }));

/** The contract of `SubscribeOptions.batchHandler`; registered inside `eventBusContract`'s describe. */
export function batchHandlerContract(h: () => Promise<ContractHarness>, topic: (label: string) => string, timeoutMs: number): void {
  it('when messages are published together to a batch handler, then it gets them in order in fewer calls, each once, and the handler none', async () => {
    const { bus, ensureTopics, committed } = await h();
    const t = topic('batch-ok');
    await ensureTopics([t], 1);
    const calls: BusMessage[][] = [];
    const singly: BusMessage[] = [];
    const sub = await bus.subscribe({
      groupId: `g-${t}`,
      topics: [t],
      handler: async (m) => void singly.push(m),
      batchHandler: async (messages) => void calls.push([...messages]),
    });
    await bus.publish(t, numbered(0, 10, { 'x-test': 'yes' }));
    const got = (): BusMessage[] => calls.flat();
    await waitFor(() => got().length >= 10, timeoutMs, 'ten messages through the batch handler');
    // Every offset committed: nothing can be delivered again, so what was seen is final.
    await committed?.(`g-${t}`, t, 10);
    assert.deepEqual(got().map(n), Array.from({ length: 10 }, (_, i) => i));
    assert.deepEqual(
      got().map((m) => [m.key, m.headers['x-test'], m.attempt, m.topic]),
      Array.from({ length: 10 }, () => ['same', 'yes', 1, t]),
    );
    assert.deepEqual(got().map((m) => Number(m.offset)), [...got().map((m) => Number(m.offset))].sort((a, b) => a - b));
    assert.ok(calls.length < 10, `batched: ${calls.map((c) => c.length).join(',')}`);
    assert.equal(singly.length, 0);
    await sub.stop();
  });

  it('when a batch handler throws, then each message of the batch goes to the handler in order, with retries and dead letters as usual, and later messages still flow', async () => {
    const { bus, ensureTopics } = await h();
    const t = topic('batch-fail');
    await ensureTopics([t, deadLetterTopic(t)], 1);
    const dead: BusMessage[] = [];
    const dlqSub = await bus.subscribe({ groupId: `g-dlq-${t}`, topics: [deadLetterTopic(t)], handler: async (m) => void dead.push(m) });
    let failBatches = true;
    const failedBatches: number[] = [];
    const okBatches: number[] = [];
    const singly: string[] = [];
    let firstFailures = 0;
    const sub = await bus.subscribe({
      groupId: `g-${t}`,
      topics: [t],
      maxAttempts: 2,
      batchHandler: async (messages) => {
        if (failBatches) {
          failedBatches.push(...messages.map(n));
          throw new Error('batch failed');
        }
        okBatches.push(...messages.map(n));
      },
      handler: async (m) => {
        // 1 fails once then passes, 2 always fails (dead letter), 0 and 3 pass.
        if (n(m) === 1 && firstFailures++ === 0) throw new Error('once');
        if (n(m) === 2) throw new Error('poison');
        singly.push(`${n(m)}@${m.attempt}`);
      },
    });
    await bus.publish(t, numbered(0, 4));
    await waitFor(() => singly.length === 3 && dead.length === 1, timeoutMs, 'the failed batch handled one by one');
    assert.deepEqual(singly, ['0@1', '1@2', '3@1']);
    assert.deepEqual(dead.map(n), [2]);
    assert.match(dead[0]?.headers['x-dlq-reason'] ?? '', /poison/);
    // Each message went to the failing batch handler once: redeliveries (attempt > 1) never do.
    assert.deepEqual(failedBatches, [0, 1, 2, 3]);
    failBatches = false;
    await bus.publish(t, numbered(4, 2));
    await waitFor(() => okBatches.length === 2, timeoutMs, 'later messages through the batch handler');
    assert.deepEqual(okBatches, [4, 5]);
    assert.equal(singly.length, 3);
    await Promise.all([sub.stop(), dlqSub.stop()]);
  });

  it('when more messages wait than maxBatchSize, then no batch is larger and full batches are used', async () => {
    const { bus, ensureTopics } = await h();
    const t = topic('batch-size');
    await ensureTopics([t], 1);
    const sizes: number[] = [];
    const got: number[] = [];
    const sub = await bus.subscribe({
      groupId: `g-${t}`,
      topics: [t],
      maxBatchSize: 3,
      handler: async () => {
        throw new Error('not expected');
      },
      batchHandler: async (messages) => {
        sizes.push(messages.length);
        got.push(...messages.map(n));
      },
    });
    await bus.publish(t, numbered(0, 10));
    await waitFor(() => got.length >= 10, timeoutMs, 'ten messages');
    assert.deepEqual(got, Array.from({ length: 10 }, (_, i) => i));
    assert.ok(Math.max(...sizes) === 3, `batch sizes ${sizes.join(',')}`);
    await sub.stop();
  });

  it('when one group has a batch handler and another has not, then the other gets every message through its handler as before', async () => {
    const { bus, ensureTopics } = await h();
    const t = topic('batch-mixed');
    await ensureTopics([t], 2);
    const batched: number[] = [];
    const plain: BusMessage[] = [];
    const s1 = await bus.subscribe({ groupId: `ga-${t}`, topics: [t], handler: async () => undefined, batchHandler: async (ms) => void batched.push(...ms.map(n)) });
    const s2 = await bus.subscribe({ groupId: `gb-${t}`, topics: [t], handler: async (m) => void plain.push(m) });
    await bus.publish(t, numbered(0, 6));
    await waitFor(() => batched.length >= 6 && plain.length >= 6, timeoutMs, 'both groups');
    assert.deepEqual(plain.map(n), [0, 1, 2, 3, 4, 5]);
    assert.ok(plain.every((m) => m.attempt === 1));
    assert.deepEqual(batched, [0, 1, 2, 3, 4, 5]);
    await Promise.all([s1.stop(), s2.stop()]);
  });
}

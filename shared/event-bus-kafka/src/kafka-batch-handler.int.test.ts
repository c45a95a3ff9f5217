import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import { deadLetterTopic, type BusMessage } from '@switchyard/event-bus';
import { waitFor } from '@switchyard/event-bus/contract';
import { KafkaEventBus } from './index';
import { SKIP_WITHOUT_BROKER, testBrokers, testBusOptions } from './test-support/broker';
import { committedCount } from './test-support/group-state';

// Kafka-specific behaviour of `batchHandler` (the contract suite covers what every adapter does).

const n = (m: BusMessage): number => (m.value as { n: number }).n;

describe('KafkaEventBus batch handler against a real broker', { skip: testBrokers.length === 0 ? SKIP_WITHOUT_BROKER : false }, () => {
  const run = randomUUID().slice(0, 8);
  const topic = (label: string): string => `batch.${run}.${label}`;
  let bus: KafkaEventBus;
  const kafka = new Kafka({ clientId: 'batch-test-raw', brokers: [...testBrokers], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  let raw: Producer;

  before(async () => {
    bus = new KafkaEventBus(testBusOptions('batch-a'));
    raw = kafka.producer();
    await Promise.all([admin.connect(), raw.connect()]);
  });
  after(async () => {
    await bus.close();
    await Promise.all([admin.disconnect(), raw.disconnect()]);
  });

  it('when a record in the middle is not JSON, then it is dead-lettered and splits the run: the batch handler gets the records before and after it', async () => {
    const t = topic('undecodable');
    await bus.ensureTopics([t, deadLetterTopic(t)], 1);
    const calls: number[][] = [];
    const singly: BusMessage[] = [];
    const sub = await bus.subscribe({ groupId: `g-${t}`, topics: [t], handler: async (m) => void singly.push(m), batchHandler: async (ms) => void calls.push(ms.map(n)) });
    // One produce request: the four records reach the member in one fetch.
    await raw.send({ topic: t, messages: ['{"n":0}', '{"n":1}', '{not json', '{"n":3}'].map((value) => ({ key: 'same', value })) });
    await waitFor(() => calls.flat().length === 3, 20_000, 'three batched');
    await committedCount(admin, `g-${t}`, t, 4);
    assert.deepEqual(calls, [[0, 1], [3]]);
    assert.equal(singly.length, 0);
    // The dead letter keeps the raw bytes (no bus subscriber could decode it): read the topic's end.
    const [end] = await admin.fetchTopicOffsets(deadLetterTopic(t));
    assert.equal(end?.high, '1');
    await sub.stop();
  });

  it('when a subscription stops during a batch call, then that whole batch is committed and the next member starts after it', async () => {
    const t = topic('stop');
    await bus.ensureTopics([t], 1);
    const calls: number[][] = [];
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const sub = await bus.subscribe({
      groupId: `g-${t}`,
      topics: [t],
      handler: async () => undefined,
      batchHandler: async (ms) => {
        calls.push(ms.map(n));
        await gate;
      },
    });
    await bus.publish(t, [0, 1, 2].map((i) => ({ key: 'same', value: { n: i } })));
    await waitFor(() => calls.length === 1, 20_000, 'the batch call');
    const stopping = sub.stop();
    release();
    await stopping;
    assert.deepEqual(calls, [[0, 1, 2]]);
    const later: number[] = [];
    const next = await bus.subscribe({ groupId: `g-${t}`, topics: [t], handler: async (m) => void later.push(n(m)) });
    // A sentinel on the same partition: anything redelivered would arrive before it.
    await bus.publish(t, [{ key: 'same', value: { n: 3 } }]);
    await waitFor(() => later.includes(3), 20_000, 'the sentinel');
    assert.deepEqual(later, [3]);
    await next.stop();
  });

  it('when a batch call runs longer than the session timeout, then heartbeats keep the member and the batch is handled once', async () => {
    // 6 s is the broker's minimum session timeout (group.min.session.timeout.ms).
    const slow = new KafkaEventBus(testBusOptions('batch-slow', { sessionTimeoutMs: 6000, heartbeatIntervalMs: 500 }));
    try {
      const t = topic('slow');
      await slow.ensureTopics([t], 1);
      const calls: number[][] = [];
      const sub = await slow.subscribe({
        groupId: `g-${t}`,
        topics: [t],
        handler: async () => undefined,
        batchHandler: async (ms) => {
          // The scenario itself (a call longer than the session timeout), not a synchronisation.
          if (calls.length === 0) await delay(7500);
          calls.push(ms.map(n));
        },
      });
      await slow.publish(t, [0, 1].map((i) => ({ key: 'same', value: { n: i } })));
      await waitFor(() => calls.length === 1, 30_000, 'the slow batch');
      await slow.publish(t, [{ key: 'same', value: { n: 2 } }]);
      // One partition, in order: a redelivered slow batch (the member lost) would come before 2.
      await waitFor(() => calls.flat().includes(2), 30_000, 'the next message');
      assert.deepEqual(calls, [[0, 1], [2]]);
      await sub.stop();
      await committedCount(admin, `g-${t}`, t, 3);
    } finally {
      await slow.close();
    }
  });
});

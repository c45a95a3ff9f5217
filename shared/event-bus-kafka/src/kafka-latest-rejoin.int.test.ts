import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { KafkaEventBus } from './index';
import { SKIP_WITHOUT_BROKER, testBrokers, testBusOptions } from './test-support/broker';

// A group that starts at latest (a broadcast group: realtime's WebSocket fan-out) must not skip what was
// published while it rejoins before its first commit on a partition (kafkajs resolves such a partition to
// its end again at every join).

async function waitFor(predicate: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(20);
  }
}

/** The partition kafkajs' default partitioner (the bus's) puts `key` in, of `count`. */
function partitionOf(topic: string, key: string, count: number): number {
  const partitionMetadata = Array.from({ length: count }, (_, partitionId) => ({ partitionId, leader: 0, partitionErrorCode: 0, replicas: [0], isr: [0] }));
  return Partitioners.DefaultPartitioner()({ topic, partitionMetadata, message: { key, value: null } });
}

describe('KafkaEventBus: a group that starts at latest and rejoins', { skip: testBrokers.length === 0 ? SKIP_WITHOUT_BROKER : false }, () => {
  const run = randomUUID().slice(0, 8);
  const admin = new Kafka({ clientId: 'latest-rejoin-admin', brokers: [...testBrokers], logLevel: logLevel.NOTHING }).admin();
  let bus: KafkaEventBus;
  let other: KafkaEventBus;

  before(async () => {
    bus = new KafkaEventBus(testBusOptions('latest-rejoin-a'));
    other = new KafkaEventBus(testBusOptions('latest-rejoin-b'));
    await admin.connect();
  });
  after(async () => {
    await Promise.all([bus.close(), other.close()]);
    await admin.disconnect();
  });

  it('when a rebalance happens before the group committed a partition, then a message published there during it is still handled', async () => {
    const t = `latest-rejoin.${run}`;
    const group = `g-${t}`;
    await bus.ensureTopics([t], 2);
    const gateKey = 'gate';
    const quietKey = ['k1', 'k2', 'k3', 'k4', 'k5', 'k6'].find((k) => partitionOf(t, k, 2) !== partitionOf(t, gateKey, 2)) ?? '';
    assert.notEqual(quietKey, '');
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let held = false;
    const handled: string[] = [];
    const record = async (by: string, key: string): Promise<void> => {
      if (key === gateKey && !held) {
        held = true;
        await gate;
      }
      handled.push(`${key}@${by}`);
    };
    const a = await bus.subscribe({ groupId: group, topics: [t], startAt: 'latest', handler: (m) => record('a', m.key) });
    // A is held in a batch of the gate's partition: it fetches nothing else and cannot rejoin until released.
    await bus.publish(t, [{ key: gateKey, value: {} }]);
    await waitFor(() => held, 20_000, 'the held handler');
    // A second member asks to join: the broker waits for A (held) to rejoin.
    const joining = other.subscribe({ groupId: group, topics: [t], startAt: 'latest', handler: (m) => record('b', m.key) });
    await waitFor(
      async () => {
        const { groups } = await admin.describeGroups([group]);
        return groups[0]?.state === 'PreparingRebalance';
      },
      20_000,
      'the rebalance to begin',
    );
    // On the other partition, which nobody has committed yet: before the fix, whoever got it after the
    // rebalance started at its end again, after this message.
    await bus.publish(t, [{ key: quietKey, value: {} }]);
    release();
    const b = await joining;
    await waitFor(() => handled.some((h) => h.startsWith(`${quietKey}@`)), 20_000, 'the message published during the rebalance');
    assert.equal(handled.filter((h) => h.startsWith(`${quietKey}@`)).length, 1, handled.join(','));
    assert.deepEqual(handled.filter((h) => h.startsWith(`${gateKey}@`)), [`${gateKey}@a`]);
    await Promise.all([a.stop(), b.stop()]);
  });
});

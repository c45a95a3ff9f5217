import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { Kafka, logLevel } from 'kafkajs';
import { deadLetterTopic, type BusMessage } from '@switchyard/event-bus';
import { DLQ_HEADERS, KafkaEventBus, type KafkaRequestInfo } from './index';
import { SKIP_WITHOUT_BROKER, testBrokers, testBusOptions } from './test-support/broker';
import { currentFakeTrace, inFakeTrace, registerFakeOtel } from './test-support/fake-otel';
import { committedCount, groupJoined } from './test-support/group-state';

// What the contract suite does not cover: Kafka-specific behaviour of this adapter.

/** Messages handled in all (every delivery counted). */
const total = (count: ReadonlyMap<string, number>): number => [...count.values()].reduce((sum, n) => sum + n, 0);

async function waitFor(predicate: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(10);
  }
}

describe('KafkaEventBus against a real broker', { skip: testBrokers.length === 0 ? SKIP_WITHOUT_BROKER : false }, () => {
  const run = randomUUID().slice(0, 8);
  const topic = (label: string): string => `adapter.${run}.${label}`;
  let bus: KafkaEventBus;
  const admin = new Kafka({ clientId: 'adapter-test-admin', brokers: [...testBrokers], logLevel: logLevel.NOTHING }).admin();

  before(async () => {
    registerFakeOtel();
    bus = new KafkaEventBus(testBusOptions('adapter-a'));
    await admin.connect();
  });
  after(async () => {
    await bus.close();
    await admin.disconnect();
  });

  it('when topics are ensured, then they exist with the requested partitions and a second call changes nothing', async () => {
    const [a, b] = [topic('ensure-a'), topic('ensure-b')];
    await bus.ensureTopics([a, { topic: b, partitions: 2 }], 5);
    await bus.ensureTopics([a, b], 1);
    const { topics } = await admin.fetchTopicMetadata({ topics: [a, b] });
    assert.deepEqual(Object.fromEntries(topics.map((t) => [t.name, t.partitions.length])), { [a]: 5, [b]: 2 });
  });

  it('when many publishes of one key run concurrently (group commit), then every one resolves and they arrive in call order', async () => {
    const t = topic('group-commit');
    const other = topic('group-commit-other');
    await bus.ensureTopics([t, other], 3);
    const seen: number[] = [];
    const sub = await bus.subscribe({ groupId: `g-${t}`, topics: [t], handler: async (m) => void seen.push((m.value as { n: number }).n) });
    // Two topics interleaved: one produce request may carry both, each keeping its own order.
    await Promise.all(Array.from({ length: 300 }, (_, n) => Promise.all([bus.publish(t, [{ key: 'same', value: { n } }]), bus.publish(other, [{ key: 'same', value: { n } }])])));
    await waitFor(() => seen.length === 300, 30_000, 'all 300 messages');
    assert.deepEqual(seen, Array.from({ length: 300 }, (_, n) => n));
    await sub.stop();
  });

  /**
   * Publishes n = 0 alone, then 1, `refused` and 3 while its request is in flight (the broker gets those three
   * in one request); returns how the three settled and what a subscriber got.
   */
  async function coalescedWithOneRefused(label: string, refused: (t: string) => Promise<void>): Promise<{ settled: PromiseSettledResult<void>[]; seen: number[] }> {
    const t = topic(label);
    await bus.ensureTopics([t], 1);
    const seen: number[] = [];
    const sub = await bus.subscribe({ groupId: `g-${t}`, topics: [t], handler: async (m) => void seen.push((m.value as { n: number }).n) });
    const send = (n: number): Promise<void> => bus.publish(t, [{ key: 'same', value: { n } }]);
    const alone = send(0);
    const together = Promise.allSettled([send(1), refused(t), send(3)]);
    await alone;
    const settled = await together;
    await waitFor(() => seen.length === 3, 20_000, 'the three accepted messages');
    await sub.stop();
    return { settled, seen };
  }

  it('when one of the publishes sharing a produce request is refused for its content, then only that caller is rejected and the others arrive in order', async () => {
    // 1.1 MB: over the broker's default message.max.bytes (1 MiB).
    const { settled, seen } = await coalescedWithOneRefused('coalesced-content', (t) => bus.publish(t, [{ key: 'same', value: { n: 2, pad: 'x'.repeat(1_100_000) } }]));
    assert.deepEqual(settled.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled']);
    assert.match(String((settled[1] as PromiseRejectedResult).reason), /larger than the max message size/);
    assert.deepEqual(seen, [0, 1, 3]);
  });

  it('when one of the publishes sharing a produce request names a topic that does not exist, then only that caller is rejected', async () => {
    const { settled, seen } = await coalescedWithOneRefused('coalesced-topic', () => bus.publish(topic('never-created'), [{ key: 'same', value: { n: 2 } }]));
    assert.deepEqual(settled.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled']);
    assert.deepEqual(seen, [0, 1, 3]);
  });

  it('when a message is published inside a trace, then the handler runs inside that trace', async () => {
    const t = topic('trace');
    await bus.ensureTopics([t], 1);
    const seen: unknown[] = [];
    const sub = await bus.subscribe({ groupId: `g-${t}`, topics: [t], handler: async () => void seen.push(currentFakeTrace()) });
    await inFakeTrace('trace-42', () => bus.publish(t, [{ key: 'k', value: {} }]));
    await waitFor(() => seen.length === 1, 20_000, 'delivery');
    assert.deepEqual(seen, ['trace-42']);
    await sub.stop();
  });

  it('when a message is dead-lettered, then the dead letter keeps key, value and headers and says where it failed', async () => {
    const t = topic('dlq');
    await bus.ensureTopics([t, deadLetterTopic(t)], 1);
    const dead: BusMessage[] = [];
    const dlqSub = await bus.subscribe({ groupId: `g-dlq-${t}`, topics: [deadLetterTopic(t)], handler: async (m) => void dead.push(m) });
    const sub = await bus.subscribe({ groupId: `g-${t}`, topics: [t], maxAttempts: 2, handler: async () => Promise.reject(new Error('always fails')) });
    await bus.publish(t, [{ key: 'poison-key', value: { n: 7 }, headers: { 'x-origin': 'test' } }]);
    await waitFor(() => dead.length === 1, 20_000, 'dead letter');
    const letter = dead[0];
    assert.equal(letter?.key, 'poison-key');
    assert.deepEqual(letter?.value, { n: 7 });
    assert.equal(letter?.headers['x-origin'], 'test');
    assert.equal(letter?.headers[DLQ_HEADERS.reason], 'always fails');
    assert.equal(letter?.headers[DLQ_HEADERS.group], `g-${t}`);
    assert.equal(letter?.headers[DLQ_HEADERS.offset], '0');
    assert.equal(letter?.headers[DLQ_HEADERS.attempts], '2');
    await Promise.all([sub.stop(), dlqSub.stop()]);
  });

  it('when a handler fails with a transient error (a dependency down) more often than maxAttempts, then it is retried until it passes, in order, and nothing is dead-lettered', async () => {
    const outage = new KafkaEventBus(testBusOptions('adapter-transient', { maxRetryDelayMs: 50, isTransientError: (e) => (e as Error).message === 'store down' }));
    try {
      const t = topic('transient');
      await outage.ensureTopics([t, deadLetterTopic(t)], 1);
      const dead: BusMessage[] = [];
      const dlqSub = await outage.subscribe({ groupId: `g-dlq-${t}`, topics: [deadLetterTopic(t)], handler: async (m) => void dead.push(m) });
      const handled: string[] = [];
      let failures = 0;
      const sub = await outage.subscribe({
        groupId: `g-${t}`,
        topics: [t],
        maxAttempts: 2,
        handler: async (m) => {
          // The store is "down" for the first 6 tries of the first message: three times maxAttempts.
          if (m.key === 'first' && failures < 6) {
            failures += 1;
            throw new Error('store down');
          }
          handled.push(m.key);
        },
      });
      await outage.publish(t, [{ key: 'first', value: {} }, { key: 'second', value: {} }]);
      await waitFor(() => handled.includes('second'), 20_000, 'both messages');
      assert.equal(failures, 6);
      assert.deepEqual(handled, ['first', 'second'], 'held on its partition, then in order');
      // A real failure still dead-letters after maxAttempts: the dead-letter path is alive, and nothing else is in it.
      await sub.stop();
      await outage.publish(t, [{ key: 'poison', value: {} }]);
      const poison = await outage.subscribe({ groupId: `g-${t}`, topics: [t], maxAttempts: 2, handler: async () => Promise.reject(new Error('bad message')) });
      await waitFor(() => dead.length === 1, 20_000, 'the poison message dead-lettered');
      assert.deepEqual(dead.map((m) => m.key), ['poison']);
      await Promise.all([poison.stop(), dlqSub.stop()]);
    } finally {
      await outage.close();
    }
  });

  it('when a subscription stops during a handler, then that message is committed and the next member starts after it', async () => {
    const t = topic('stop');
    await bus.ensureTopics([t], 1);
    const handled: number[] = [];
    let started = false;
    // The first handler is held until stop() has been called: a gate, not a guess at how long stop takes.
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const sub = await bus.subscribe({
      groupId: `g-${t}`,
      topics: [t],
      handler: async (m) => {
        started = true;
        await gate;
        handled.push((m.value as { n: number }).n);
      },
    });
    await bus.publish(t, [1, 2].map((n) => ({ key: 'same', value: { n } })));
    await waitFor(() => started, 20_000, 'first handler start');
    const stopping = sub.stop();
    release();
    await stopping;
    assert.deepEqual(handled, [1], 'stop waited for the in-flight message only');
    const later: number[] = [];
    const next = await bus.subscribe({ groupId: `g-${t}`, topics: [t], handler: async (m) => void later.push((m.value as { n: number }).n) });
    // A sentinel after message 2 on the same partition: once it is here, anything redelivered is here too.
    await bus.publish(t, [{ key: 'same', value: { n: 3 } }]);
    await waitFor(() => later.includes(3), 20_000, 'the sentinel');
    assert.deepEqual(later, [2, 3], 'the next member starts after the committed in-flight message');
    await next.stop();
  });

  it('when a new group starts at latest, then it gets exactly the messages published once subscribe returned', async () => {
    const t = topic('latest');
    await bus.ensureTopics([t], 2);
    await bus.publish(t, [{ key: 'a', value: { when: 'before' } }]);
    const got: unknown[] = [];
    const sub = await bus.subscribe({ groupId: `g-${t}`, topics: [t], startAt: 'latest', handler: async (m) => void got.push(m.value) });
    await bus.publish(t, [{ key: 'b', value: { when: 'after' } }]);
    // A sentinel behind the earlier message on its partition (same key): had the group started at the
    // beginning, the earlier message would arrive before it.
    await bus.publish(t, [{ key: 'a', value: { when: 'sentinel' } }]);
    await waitFor(() => got.length === 2, 20_000, 'the message and the sentinel published after subscribe');
    assert.deepEqual(got.map((v) => (v as { when: string }).when).sort(), ['after', 'sentinel']);
    await sub.stop();
  });

  it('when a handler runs longer than the session timeout, then heartbeats keep the member and it is handled once', async () => {
    // 6 s is the broker's minimum session timeout (group.min.session.timeout.ms).
    const slow = new KafkaEventBus(testBusOptions('adapter-slow', { sessionTimeoutMs: 6000, heartbeatIntervalMs: 500 }));
    try {
      const t = topic('slow');
      await slow.ensureTopics([t], 1);
      const handled: string[] = [];
      const sub = await slow.subscribe({
        groupId: `g-${t}`,
        topics: [t],
        handler: async (m) => {
          // The scenario itself (a handler longer than the session timeout), not a synchronisation.
          if (m.key === 'slow') await delay(7500);
          handled.push(m.key);
        },
      });
      await slow.publish(t, [{ key: 'slow', value: {} }, { key: 'next', value: {} }]);
      // One partition, in order: a redelivered 'slow' (the member lost) would come before 'next'.
      await waitFor(() => handled.includes('next'), 30_000, 'both messages');
      assert.deepEqual(handled, ['slow', 'next']);
      await sub.stop();
      const [offsets] = await admin.fetchOffsets({ groupId: `g-${t}`, topics: [t] });
      assert.equal(offsets?.partitions[0]?.offset, '2', 'both offsets committed');
    } finally {
      await slow.close();
    }
  });

  it('when a subscription handles 3 partitions at once, then handlers of different partitions overlap and each partition stays in order', async () => {
    const t = topic('at-once');
    await bus.ensureTopics([t], 3);
    const inFlight = new Map<number, number>();
    let mostAtOnce = 0;
    const seen = new Map<string, number[]>();
    // Published before the group joins (it starts at the earliest offset), so its first fetch holds all
    // three partitions: a fetch answered after only one partition's append made every message of that
    // batch wait out the hold below, one after the other (30 s timeout hit in CI).
    const keys = Array.from({ length: 12 }, (_, i) => `key-${i}`);
    await bus.publish(t, keys.flatMap((key) => [0, 1, 2].map((n) => ({ key, value: { key, n } }))));
    const sub = await bus.subscribe({
      groupId: `g-${t}`,
      topics: [t],
      partitionsAtOnce: 3,
      handler: async (m) => {
        inFlight.set(m.partition, (inFlight.get(m.partition) ?? 0) + 1);
        mostAtOnce = Math.max(mostAtOnce, [...inFlight.values()].filter((n) => n > 0).length);
        // Held until a second partition's handler is running too (or 10 s, after which the assertion fails).
        await waitFor(() => mostAtOnce >= 2, 10_000, 'a second partition').catch(() => undefined);
        const value = m.value as { key: string; n: number };
        seen.set(value.key, [...(seen.get(value.key) ?? []), value.n]);
        inFlight.set(m.partition, (inFlight.get(m.partition) ?? 1) - 1);
      },
    });
    await waitFor(() => [...seen.values()].reduce((sum, ns) => sum + ns.length, 0) === 36, 30_000, 'all 36 messages');
    await sub.stop();
    assert.ok(mostAtOnce >= 2, `at most ${mostAtOnce} partition(s) were handled at once`);
    for (const key of keys) assert.deepEqual(seen.get(key), [0, 1, 2], key);
  });

  /** A bus with `commitIntervalMs`, one subscription on a new 3-partition topic that has handled 24 messages. */
  async function handled24(label: string, commitIntervalMs: number): Promise<{ bus: KafkaEventBus; groupId: string; t: string; sub: { stop(): Promise<void> } }> {
    const own = new KafkaEventBus(testBusOptions(`adapter-${label}`, { commitIntervalMs }));
    const t = topic(label);
    await own.ensureTopics([t], 3);
    const handled = new Set<string>();
    const sub = await own.subscribe({ groupId: `g-${t}`, topics: [t], handler: async (m) => void handled.add(m.key) });
    await own.publish(t, Array.from({ length: 24 }, (_, n) => ({ key: `k${n}`, value: { n } })));
    await waitFor(() => handled.size === 24, 20_000, 'all 24 messages');
    return { bus: own, groupId: `g-${t}`, t, sub };
  }

  it('when a running member has handled messages, then their offsets are committed within commitIntervalMs', async () => {
    const { bus: timed, groupId, t, sub } = await handled24('commit-timer', 200);
    try {
      // Still running: only the timer can have committed them.
      await committedCount(admin, groupId, t, 24, 10_000);
      await sub.stop();
    } finally {
      await timed.close();
    }
  });

  it('when a member stops, then the offsets it handled and had not committed yet are committed first', async () => {
    const { bus: lazy, groupId, t, sub } = await handled24('commit-stop', 120_000);
    try {
      const [before] = await admin.fetchOffsets({ groupId, topics: [t] });
      assert.ok((before?.partitions ?? []).every((p) => Number(p.offset) < 0), 'handled offsets wait for the interval (not one commit per batch)');
      await sub.stop();
      const [after] = await admin.fetchOffsets({ groupId, topics: [t] });
      assert.equal((after?.partitions ?? []).reduce((sum, p) => sum + Math.max(0, Number(p.offset)), 0), 24, 'all committed by stop()');
    } finally {
      await lazy.close();
    }
  });

  it('when a rebalance moves partitions whose handled offsets were not committed, then nothing is lost and no partition moves back', async () => {
    const lazy = new KafkaEventBus(testBusOptions('adapter-commit-rebalance-a', { commitIntervalMs: 120_000 }));
    const other = new KafkaEventBus(testBusOptions('adapter-commit-rebalance-b'));
    try {
      const t = topic('commit-rebalance');
      await lazy.ensureTopics([t], 4);
      const count = new Map<string, number>();
      const round2 = new Set<string>();
      const handler = async (m: BusMessage): Promise<void> => {
        count.set(m.key, (count.get(m.key) ?? 0) + 1);
        if ((m.value as { round?: number }).round === 2) round2.add(m.key);
      };
      const first = await lazy.subscribe({ groupId: `g-${t}`, topics: [t], handler });
      await lazy.publish(t, Array.from({ length: 40 }, (_, n) => ({ key: `k${n}`, value: { n } })));
      await waitFor(() => count.size === 40, 20_000, 'the first 40 messages');
      // Nothing committed yet (120 s interval): the new member starts its partitions from the beginning.
      const second = await other.subscribe({ groupId: `g-${t}`, topics: [t], handler });
      await groupJoined(admin, `g-${t}`, 2);
      await lazy.publish(t, Array.from({ length: 40 }, (_, n) => ({ key: `k${n}`, value: { n, round: 2 } })));
      await waitFor(() => round2.size === 40, 30_000, 'the second round on every key');
      // The second member leaves: the first gets every partition back, then stops and commits what it
      // handled since. Offsets recorded before the rebalance must not be committed over later ones.
      const handledBefore = total(count);
      await second.stop();
      await groupJoined(admin, `g-${t}`, 1);
      // After the join the first member starts each partition at its committed offset (the second's
      // partitions at their end, its own from the start: nothing of them was committed), so it handles
      // exactly what lies between again; stopping before that is done would leave nothing to commit.
      const [committed] = await admin.fetchOffsets({ groupId: `g-${t}`, topics: [t] });
      const ends = await admin.fetchTopicOffsets(t);
      const again = ends.reduce((sum, end) => {
        const done = Number(committed?.partitions.find((p) => p.partition === end.partition)?.offset ?? -1);
        return sum + Number(end.high) - Math.max(0, done);
      }, 0);
      await waitFor(() => total(count) >= handledBefore + again, 30_000, `the ${again} messages handled again after the rejoin`);
      await first.stop();
      const [offsets] = await admin.fetchOffsets({ groupId: `g-${t}`, topics: [t] });
      assert.equal((offsets?.partitions ?? []).reduce((sum, p) => sum + Math.max(0, Number(p.offset)), 0), 80, 'every partition committed to its end');
    } finally {
      await Promise.all([lazy.close(), other.close()]);
    }
  });

  it('when a member just got messages, then it fetches again only fetchLingerMs after that fetch; an idle member is not held', async () => {
    const lingering = new KafkaEventBus(testBusOptions('adapter-linger', { fetchLingerMs: 2000 }));
    try {
      const t = topic('linger');
      await lingering.ensureTopics([t], 1);
      const handledAt = new Map<string, number>();
      let publishB: Promise<void> | undefined;
      const sub = await lingering.subscribe({
        groupId: `g-${t}`,
        topics: [t],
        handler: async (m) => {
          handledAt.set(m.key, Date.now());
          // B is published once A is handled: it is fetched only when the linger after A's fetch is over.
          if (m.key === 'a') publishB = lingering.publish(t, [{ key: 'b', value: {} }]);
        },
      });
      await lingering.publish(t, [{ key: 'a', value: {} }]);
      await waitFor(() => handledAt.has('b'), 20_000, 'b');
      await publishB;
      const gap = (handledAt.get('b') ?? 0) - (handledAt.get('a') ?? 0);
      assert.ok(gap >= 1500, `b handled ${gap} ms after a: the member did not linger`);
      // Idle longer than the linger: the next message is fetched as soon as it is there.
      await delay(2500);
      const sentC = Date.now();
      await lingering.publish(t, [{ key: 'c', value: {} }]);
      await waitFor(() => handledAt.has('c'), 20_000, 'c');
      const latency = (handledAt.get('c') ?? 0) - sentC;
      assert.ok(latency < 1500, `c handled ${latency} ms after it was sent: an idle member was held`);
      await sub.stop();
    } finally {
      await lingering.close();
    }
  });

  it('when onRequest is given, then it hears the producer\'s and each consumer\'s requests with their group', async () => {
    const heard: KafkaRequestInfo[] = [];
    const counted = new KafkaEventBus(testBusOptions('adapter-requests', { onRequest: (r) => void heard.push(r) }));
    try {
      const t = topic('requests');
      await counted.ensureTopics([t], 1);
      let handled = false;
      const sub = await counted.subscribe({ groupId: `g-${t}`, topics: [t], handler: async () => void (handled = true) });
      await counted.publish(t, [{ key: 'k', value: {} }]);
      await waitFor(() => handled, 20_000, 'delivery');
      await sub.stop();
      assert.ok(heard.some((r) => r.client === 'producer' && r.api === 'Produce'), 'a Produce of the producer');
      assert.ok(heard.some((r) => r.client === 'consumer' && r.groupId === `g-${t}` && r.api === 'Fetch'), 'a Fetch of the group');
      assert.ok(heard.some((r) => r.client === 'consumer' && r.groupId === `g-${t}` && r.api === 'OffsetCommit'), 'the commit at stop');
    } finally {
      await counted.close();
    }
  });

  it('when a group that starts at latest joins with a long idle poll, then subscribe does not wait for its first fetch, commits its start, and a message published right after arrives', async () => {
    const heard: KafkaRequestInfo[] = [];
    const patient = new KafkaEventBus(testBusOptions('adapter-long-poll', { maxWaitTimeMs: 4000, onRequest: (r) => void heard.push(r) }));
    try {
      const t = topic('long-poll');
      await patient.ensureTopics([t], 1);
      await patient.publish(t, [{ key: 'k', value: 'before' }]);
      const got: unknown[] = [];
      const group = `g-${t}`;
      const sub = await patient.subscribe({ groupId: group, topics: [t], startAt: 'latest', handler: async (m) => void got.push(m.value) });
      // The first fetch long-polls 4 s (nothing new on the topic): subscribe returned without its answer.
      assert.ok(heard.some((r) => r.groupId === group && r.api === 'OffsetCommit'), 'the end, fixed before joining, was committed as the start');
      assert.ok(!heard.some((r) => r.groupId === group && r.api === 'Fetch'), 'subscribe waited for the first fetch to answer');
      await patient.publish(t, [{ key: 'k', value: 'after' }]);
      await waitFor(() => got.length > 0, 20_000, 'the message published after subscribe');
      assert.deepEqual(got, ['after']);
      await sub.stop();
    } finally {
      await patient.close();
    }
  });

  it('when the bus is closed, then it reports unhealthy and refuses to publish', async () => {
    const other = new KafkaEventBus(testBusOptions('adapter-close'));
    assert.equal(await other.health(), true);
    await other.close();
    assert.equal(await other.health(), false);
    await assert.rejects(other.publish(topic('closed'), [{ key: 'k', value: 1 }]), /closed/);
  });
});

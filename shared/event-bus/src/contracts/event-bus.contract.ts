import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import { deadLetterTopic, type BusMessage } from '../ports';
import { batchHandlerContract } from './event-bus-batch.contract';
import { waitFor, type ContractHarness } from './contract-support';

export { waitFor, type ContractHarness } from './contract-support';

/**
 * The behaviour every EventBus adapter must show. Run it with each adapter's harness:
 * `eventBusContract('memory', async () => harness)`.
 */
export function eventBusContract(name: string, makeHarness: () => Promise<ContractHarness>, timeoutMs = 20_000): void {
  describe(`event bus contract: ${name}`, () => {
    let harness: ContractHarness | undefined;
    const run = randomUUID().slice(0, 8);
    const topic = (label: string): string => `contract.${run}.${label}`;
    const h = async (): Promise<ContractHarness> => {
      harness ??= await makeHarness();
      return harness;
    };
    after(async () => {
      await harness?.cleanup();
    });

    it('when a message is published, then a subscriber gets its key, value and headers', async () => {
      const { bus, ensureTopics } = await h();
      const t = topic('basic');
      await ensureTopics([t], 3);
      const got: BusMessage[] = [];
      const sub = await bus.subscribe({ groupId: `g-${t}`, topics: [t], handler: async (m) => void got.push(m) });
      await bus.publish(t, [{ key: 'k1', value: { hello: 'world', n: 1 }, headers: { 'x-test': 'yes' } }]);
      await waitFor(() => got.length === 1, timeoutMs, 'delivery');
      assert.equal(got[0]?.key, 'k1');
      assert.deepEqual(got[0]?.value, { hello: 'world', n: 1 });
      // The JSON text it was read from, when the bus gives it: exactly the value's.
      if (got[0]?.json !== undefined) assert.deepEqual(JSON.parse(got[0].json), { hello: 'world', n: 1 });
      assert.equal(got[0]?.headers['x-test'], 'yes');
      assert.equal(got[0]?.attempt, 1);
      await sub.stop();
    });

    it('when many messages share keys, then each key is handled in publish order', async () => {
      const { bus, ensureTopics } = await h();
      const t = topic('order');
      await ensureTopics([t], 4);
      const seen = new Map<string, number[]>();
      const sub = await bus.subscribe({
        groupId: `g-${t}`,
        topics: [t],
        handler: async (m) => {
          const v = m.value as { seq: number };
          seen.set(m.key, [...(seen.get(m.key) ?? []), v.seq]);
          if (v.seq % 7 === 0) await delay(2);
        },
      });
      const keys = ['a', 'b', 'c', 'd', 'e'];
      for (let seq = 0; seq < 100; seq += 1) {
        await bus.publish(t, [{ key: keys[seq % keys.length] ?? 'a', value: { seq } }]);
      }
      await waitFor(() => [...seen.values()].reduce((n, l) => n + l.length, 0) === 100, timeoutMs, '100 messages');
      for (const [key, list] of seen) assert.deepEqual(list, [...list].sort((x, y) => x - y), `order of ${key}`);
      await sub.stop();
    });

    it('when two groups subscribe, then each group gets every message', async () => {
      const { bus, ensureTopics } = await h();
      const t = topic('groups');
      await ensureTopics([t], 2);
      const a: string[] = [];
      const b: string[] = [];
      const s1 = await bus.subscribe({ groupId: `ga-${t}`, topics: [t], handler: async (m) => void a.push(m.key) });
      const s2 = await bus.subscribe({ groupId: `gb-${t}`, topics: [t], handler: async (m) => void b.push(m.key) });
      await bus.publish(t, ['1', '2', '3', '4'].map((key) => ({ key, value: { key } })));
      await waitFor(() => a.length === 4 && b.length === 4, timeoutMs, 'both groups');
      assert.deepEqual([...a].sort(), ['1', '2', '3', '4']);
      assert.deepEqual([...b].sort(), ['1', '2', '3', '4']);
      await Promise.all([s1.stop(), s2.stop()]);
    });

    it('when two members share a group, then every message is handled and none twice', async () => {
      const { bus, ensureTopics, newClient, groupJoined, committed } = await h();
      const other = await newClient();
      const t = topic('members');
      await ensureTopics([t], 4);
      const handled = new Map<string, number>();
      const byMember = [0, 0];
      const handler = (member: 0 | 1) => async (m: BusMessage): Promise<void> => {
        handled.set(m.key, (handled.get(m.key) ?? 0) + 1);
        byMember[member] = (byMember[member] ?? 0) + 1;
      };
      const s1 = await bus.subscribe({ groupId: `g-${t}`, topics: [t], handler: handler(0) });
      const s2 = await other.subscribe({ groupId: `g-${t}`, topics: [t], handler: handler(1) });
      // Both members hold partitions before anything is published: no rebalance while messages flow.
      await groupJoined?.(`g-${t}`, 2);
      const keys = Array.from({ length: 40 }, (_, i) => `key-${i}`);
      await bus.publish(t, keys.map((key) => ({ key, value: { key } })));
      await waitFor(() => handled.size === 40, timeoutMs, 'all keys');
      // Every offset committed: nothing can be delivered again, so the counts are final.
      await committed?.(`g-${t}`, t, 40);
      assert.ok([...handled.values()].every((n) => n === 1), 'no duplicates without failures');
      assert.ok((byMember[0] ?? 0) > 0 && (byMember[1] ?? 0) > 0, `both members worked: ${byMember.join(',')}`);
      await Promise.all([s1.stop(), s2.stop()]);
      await other.close();
    });

    it('when a handler fails, then the message is delivered again before later ones of its key', async () => {
      const { bus, ensureTopics } = await h();
      const t = topic('retry');
      await ensureTopics([t], 1);
      const log: string[] = [];
      let failures = 0;
      const sub = await bus.subscribe({
        groupId: `g-${t}`,
        topics: [t],
        maxAttempts: 5,
        handler: async (m) => {
          const v = m.value as { n: number };
          if (v.n === 1 && failures < 2) {
            failures += 1;
            throw new Error('transient');
          }
          log.push(`${v.n}@${m.attempt}`);
        },
      });
      await bus.publish(t, [0, 1, 2].map((n) => ({ key: 'same', value: { n } })));
      await waitFor(() => log.length === 3, timeoutMs, 'three handled');
      assert.deepEqual(log, ['0@1', '1@3', '2@1']);
      await sub.stop();
    });

    it('when a handler keeps failing, then the message goes to the dead-letter topic and the partition moves on', async () => {
      const { bus, ensureTopics } = await h();
      const t = topic('dlq');
      await ensureTopics([t, deadLetterTopic(t)], 1);
      const dead: BusMessage[] = [];
      const ok: number[] = [];
      const dlqSub = await bus.subscribe({ groupId: `g-dlq-${t}`, topics: [deadLetterTopic(t)], handler: async (m) => void dead.push(m) });
      const sub = await bus.subscribe({
        groupId: `g-${t}`,
        topics: [t],
        maxAttempts: 3,
        handler: async (m) => {
          const v = m.value as { n: number };
          if (v.n === 0) throw new Error('poison');
          ok.push(v.n);
        },
      });
      await bus.publish(t, [0, 1].map((n) => ({ key: 'k', value: { n } })));
      await waitFor(() => dead.length === 1 && ok.length === 1, timeoutMs, 'dead letter and next message');
      assert.deepEqual(dead[0]?.value, { n: 0 });
      assert.match(dead[0]?.headers['x-dlq-reason'] ?? '', /poison/);
      assert.deepEqual(ok, [1]);
      await Promise.all([sub.stop(), dlqSub.stop()]);
    });

    it('when one member stops, then the other member takes over its partitions', async () => {
      const { bus, ensureTopics, newClient } = await h();
      const other = await newClient();
      const t = topic('takeover');
      await ensureTopics([t], 2);
      const got = new Set<string>();
      const s1 = await bus.subscribe({ groupId: `g-${t}`, topics: [t], handler: async (m) => void got.add(m.key) });
      const s2 = await other.subscribe({ groupId: `g-${t}`, topics: [t], handler: async (m) => void got.add(m.key) });
      await bus.publish(t, ['a', 'b', 'c'].map((key) => ({ key, value: {} })));
      await waitFor(() => got.size === 3, timeoutMs, 'first batch');
      await s2.stop();
      await other.close();
      await bus.publish(t, Array.from({ length: 10 }, (_, i) => ({ key: `late-${i}`, value: {} })));
      await waitFor(() => got.size === 13, timeoutMs * 2, 'takeover batch');
      await s1.stop();
    });

    it('when messages were published before a group first joined, then it gets them: a durable group starts at the earliest retained message', async () => {
      const { bus, ensureTopics } = await h();
      const t = topic('earlier');
      await ensureTopics([t], 1);
      await bus.publish(t, [{ key: 'x', value: { n: 1 } }]);
      const got: unknown[] = [];
      const sub = await bus.subscribe({ groupId: `g-${t}`, topics: [t], handler: async (m) => void got.push(m.value) });
      await bus.publish(t, [{ key: 'x', value: { n: 2 } }]);
      await waitFor(() => got.length === 2, timeoutMs, 'the earlier and the later message');
      assert.deepEqual(got, [{ n: 1 }, { n: 2 }]);
      await sub.stop();
    });

    it('when a group that starts at latest first joins, then it gets only what was published after subscribe resolved', async () => {
      const { bus, ensureTopics } = await h();
      const t = topic('latest');
      await ensureTopics([t], 1);
      await bus.publish(t, [{ key: 'x', value: { n: 1 } }]);
      const got: unknown[] = [];
      const sub = await bus.subscribe({ groupId: `g-${t}`, topics: [t], startAt: 'latest', handler: async (m) => void got.push(m.value) });
      await bus.publish(t, [{ key: 'x', value: { n: 2 } }]);
      // One partition, handled in order: the earlier message, had it been delivered, would have come first.
      await waitFor(() => got.length >= 1, timeoutMs, 'the later message');
      assert.deepEqual(got, [{ n: 2 }]);
      await sub.stop();
    });

    it('when a group that starts at latest stops before it handled anything and subscribes again, then what was published while it was away arrives', async () => {
      const { bus, ensureTopics } = await h();
      const t = topic('latest-away');
      await ensureTopics([t], 1);
      const first = await bus.subscribe({ groupId: `g-${t}`, topics: [t], startAt: 'latest', handler: async () => undefined });
      await first.stop();
      // Nothing was handled, so nothing committed but the start the group's first subscribe fixed.
      await bus.publish(t, [{ key: 'x', value: { n: 1 } }]);
      const got: unknown[] = [];
      const again = await bus.subscribe({ groupId: `g-${t}`, topics: [t], startAt: 'latest', handler: async (m) => void got.push(m.value) });
      await bus.publish(t, [{ key: 'x', value: { n: 2 } }]);
      await waitFor(() => got.length >= 2, timeoutMs, 'the message published while the group was away, then the later one');
      assert.deepEqual(got, [{ n: 1 }, { n: 2 }]);
      await again.stop();
    });

    it('when a group that has committed subscribes again, then it resumes after its last commit, whatever its start', async () => {
      const { bus, ensureTopics } = await h();
      for (const startAt of ['earliest', 'latest'] as const) {
        const t = topic(`resume-${startAt}`);
        await ensureTopics([t], 1);
        const first: unknown[] = [];
        const sub = await bus.subscribe({ groupId: `g-${t}`, topics: [t], startAt, handler: async (m) => void first.push(m.value) });
        await bus.publish(t, [{ key: 'x', value: { n: 1 } }]);
        await waitFor(() => first.length === 1, timeoutMs, 'the first message');
        await sub.stop();
        await bus.publish(t, [{ key: 'x', value: { n: 2 } }]);
        const second: unknown[] = [];
        const again = await bus.subscribe({ groupId: `g-${t}`, topics: [t], startAt, handler: async (m) => void second.push(m.value) });
        await waitFor(() => second.length >= 1, timeoutMs, `the message published while the ${startAt} group was away`);
        assert.deepEqual(second, [{ n: 2 }], startAt);
        await again.stop();
      }
    });

    it('when messages are published, then endOffsets names where the next one of each partition goes', async () => {
      const { bus, ensureTopics } = await h();
      if (!bus.endOffsets) return;
      const t = topic('ends');
      await ensureTopics([t], 2);
      const before = await bus.endOffsets([t]);
      assert.ok(before.length >= 1);
      assert.deepEqual([...before].sort((a, b) => a.partition - b.partition).map((e) => [e.topic, e.partition, e.offset]), before.map((_, i) => [t, i, '0']));
      await bus.publish(t, [{ key: 'a', value: 1 }, { key: 'a', value: 2 }, { key: 'b', value: 3 }]);
      const after = await bus.endOffsets([t]);
      assert.equal(after.length, before.length);
      assert.equal(after.reduce((sum, e) => sum + Number(e.offset), 0), 3);
    });

    it('when a range of a partition is read with readLog, then its messages come in order from its start, bounded, with where to go on', async () => {
      const { bus, ensureTopics } = await h();
      if (!bus.readLog || !bus.endOffsets) return;
      const t = topic('readlog');
      await ensureTopics([t], 1);
      await bus.publish(t, Array.from({ length: 6 }, (_, n) => ({ key: 'k', value: { n } })));
      const all = await bus.readLog([{ topic: t, partition: 0, from: '1', to: '5' }], 100);
      assert.equal(all.gone, false);
      assert.deepEqual(all.messages.map((m) => [m.offset, m.value]), [1, 2, 3, 4].map((n) => [String(n), { n }]));
      assert.deepEqual(all.next.map((n) => [n.topic, n.partition, n.offset]), [[t, 0, '5']]);
      const bounded = await bus.readLog([{ topic: t, partition: 0, from: '0', to: '6' }], 2);
      assert.deepEqual(bounded.messages.map((m) => m.value), [{ n: 0 }, { n: 1 }]);
      assert.deepEqual(bounded.next.map((n) => n.offset), ['2']);
    });

    it('when readLog is told to skip messages by their key, then those are neither decoded nor returned but read past, within the bound of messages looked at', async () => {
      const { bus, ensureTopics } = await h();
      if (!bus.readLog || !bus.endOffsets) return;
      const t = topic('readlog-skip');
      await ensureTopics([t], 2);
      const keys = ['a', 'b', 'b', 'a', 'b', 'b', 'b', 'a2', 'b2'];
      await bus.publish(t, keys.map((key, n) => ({ key, value: { n } })));
      const ends = (await bus.endOffsets([t])).filter((e) => Number(e.offset) > 0);
      const asked: string[] = [];
      const skip = (name: string, key: string): boolean => {
        asked.push(name);
        return key.startsWith('b');
      };
      const all = await bus.readLog(
        ends.map((e) => ({ topic: t, partition: e.partition, from: '0', to: e.offset })),
        100,
        { skip },
      );
      const got = all.messages.map((m) => [m.key, m.value] as const).sort((x, y) => (x[1] as { n: number }).n - (y[1] as { n: number }).n);
      assert.deepEqual(got, [['a', { n: 0 }], ['a', { n: 3 }], ['a2', { n: 7 }]]);
      assert.deepEqual(all.next.map((n) => n.offset).sort(), ends.map((e) => e.offset).sort(), 'read past the skipped ones to the end');
      assert.equal(asked.length, keys.length, 'asked once per message');
      assert.ok(asked.every((name) => name === t), 'skip is told the topic as the caller names it');
      // A bound of 3 looked at: 3 skipped, nothing returned, the next read starts after them.
      const u = topic('readlog-scan');
      await ensureTopics([u], 1);
      await bus.publish(u, Array.from({ length: 5 }, (_, n) => ({ key: 'b', value: { n } })));
      const end = (await bus.endOffsets([u])).find((e) => e.offset === '5');
      assert.ok(end);
      const bounded = await bus.readLog([{ topic: u, partition: end.partition, from: '0', to: '5' }], 100, { skip, maxScanned: 3 });
      assert.deepEqual(bounded.messages, []);
      assert.deepEqual(bounded.next.map((n) => n.offset), ['3']);
    });

    it('when a range is larger than one fetch (1.5 MB), then readLog reads it to its end, each message once', async () => {
      const { bus, ensureTopics } = await h();
      if (!bus.readLog) return;
      const t = topic('readlog-big');
      await ensureTopics([t], 1);
      const text = 'x'.repeat(600);
      for (let n = 0; n < 2500; n += 500) await bus.publish(t, Array.from({ length: 500 }, (_, i) => ({ key: 'k', value: { n: n + i, text } })));
      const read = await bus.readLog([{ topic: t, partition: 0, from: '0', to: '2500' }], 5000);
      assert.deepEqual(read.messages.map((m) => (m.value as { n: number }).n), Array.from({ length: 2500 }, (_, n) => n));
      assert.deepEqual(read.next.map((n) => n.offset), ['2500']);
    });

    batchHandlerContract(h, topic, timeoutMs);
  });
}

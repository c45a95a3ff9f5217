import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { deadLetterTopic, type BusMessage } from '@switchyard/event-bus';
import { DeadLetterAdmin, KafkaEventBus, REPUBLISHED_FROM_HEADER } from './index';
import { SKIP_WITHOUT_BROKER, testBrokers, testBusOptions } from './test-support/broker';

const waitFor = async (what: string, check: () => boolean, ms = 30_000): Promise<void> => {
  for (const until = Date.now() + ms; !check(); ) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('DeadLetterAdmin on a real broker: a consumer dead-letters, the tool lists and re-publishes', { skip: testBrokers.length === 0 ? SKIP_WITHOUT_BROKER : false, timeout: 120_000 }, () => {
  const namespace = `dla-${randomBytes(4).toString('hex')}.`;
  const topic = `${namespace}posts.events`;
  const bus = new KafkaEventBus(testBusOptions('dla-test'));
  const admin = new DeadLetterAdmin({ brokers: testBrokers, clientId: 'dla-test-admin', namespace });
  const seen: BusMessage[] = [];
  let failing = true;

  before(async () => {
    await bus.ensureTopics([{ topic, partitions: 2 }, { topic: deadLetterTopic(topic), partitions: 1 }]);
    await bus.subscribe({
      groupId: `${namespace}consumer`,
      topics: [topic],
      maxAttempts: 2,
      handler: async (message) => {
        seen.push(message);
        if (failing && (message.value as { n: number }).n % 2 === 1) throw new Error(`cannot handle n=${(message.value as { n: number }).n}`);
      },
    });
    for (let n = 1; n <= 4; n += 1) await bus.publish(topic, [{ key: `k${n}`, value: { n }, headers: { 'x-test': `h${n}` } }]);
  });
  after(async () => {
    await admin.close();
    await bus.close();
  });

  it('when a consumer gives up on messages, then list shows each with its topic, group, reason, attempts, key, value and headers', async () => {
    let letters = await admin.list(deadLetterTopic(topic));
    for (const until = Date.now() + 30_000; letters.length < 2 && Date.now() < until; ) {
      await new Promise((r) => setTimeout(r, 300));
      letters = await admin.list(deadLetterTopic(topic));
    }
    assert.deepEqual(await admin.deadLetterTopics(), [deadLetterTopic(topic)]);
    assert.deepEqual(letters.map((l) => JSON.parse(l.value ?? 'null') as unknown).sort((a, b) => (a as { n: number }).n - (b as { n: number }).n), [{ n: 1 }, { n: 3 }]);
    for (const l of letters) {
      assert.equal(l.topic, topic);
      assert.equal(l.group, `${namespace}consumer`);
      assert.equal(l.attempts, 2);
      assert.match(l.reason, /cannot handle n=/);
      assert.equal(l.key, `k${(JSON.parse(l.value ?? '{}') as { n: number }).n}`);
      assert.equal(l.headers['x-test'], `h${(JSON.parse(l.value ?? '{}') as { n: number }).n}`);
      assert.ok(!Object.keys(l.headers).some((h) => h.startsWith('x-dlq-')), 'the dead-letter headers are not among the original ones');
      assert.equal(l.republished, false);
    }
  });

  it('when one is re-published by offset, then the consumer gets it again with its original key and headers', async () => {
    failing = false;
    const [first] = await admin.list(deadLetterTopic(topic));
    assert.ok(first);
    const before = seen.length;
    const done = await admin.republish(deadLetterTopic(topic), [{ partition: first.partition, offset: first.offset }]);
    assert.equal(done.length, 1);
    await waitFor('the re-published message', () => seen.slice(before).some((m) => m.headers[REPUBLISHED_FROM_HEADER] !== undefined));
    const again = seen.slice(before).find((m) => m.headers[REPUBLISHED_FROM_HEADER] !== undefined);
    assert.deepEqual(again?.value, JSON.parse(first.value ?? 'null'));
    assert.equal(again?.key, first.key);
    assert.equal(again?.headers['x-test'], first.headers['x-test']);
    assert.equal(again?.headers[REPUBLISHED_FROM_HEADER], `${deadLetterTopic(topic)}/${first.partition}/${first.offset}`);
  });

  it('when the pending ones are re-published twice, then each goes out once and list marks them re-published', async () => {
    const before = seen.length;
    const first = await admin.republishPending(deadLetterTopic(topic));
    assert.equal(first.length, 2);
    const second = await admin.republishPending(deadLetterTopic(topic));
    assert.equal(second.length, 0);
    await waitFor('both re-published messages', () => seen.slice(before).filter((m) => m.headers[REPUBLISHED_FROM_HEADER] !== undefined).length >= 2);
    assert.ok((await admin.list(deadLetterTopic(topic))).every((l) => l.republished));
  });
});

import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { deadLetterTopic, type BusMessage } from '@switchyard/event-bus';
import { KafkaEventBus } from '@switchyard/event-bus-kafka';
import { runCtl } from './test-support/run-ctl';

/** `switchyardctl dead-letters` on the real Kafka (KAFKA_BROKERS; deploy/local/up.sh), under its own KAFKA_NAMESPACE. */
const brokers = (process.env.KAFKA_BROKERS ?? '').split(',').filter(Boolean);

describe('switchyardctl dead-letters on a real broker', { skip: brokers.length === 0 ? 'KAFKA_BROKERS not set: run deploy/local/up.sh' : false, timeout: 180_000 }, () => {
  const namespace = `ctl-${randomBytes(4).toString('hex')}.`;
  const topic = 'posts.events';
  const full = `${namespace}${topic}`;
  const bus = new KafkaEventBus({ brokers, clientId: 'ctl-dlq-test', retryDelayMs: 20, maxWaitTimeMs: 250, heartbeatIntervalMs: 500, sessionTimeoutMs: 10_000, rebalanceTimeoutMs: 10_000 });
  const handled: BusMessage[] = [];
  let failing = true;
  const ctl = (args: string[], env: Record<string, string> = {}) => runCtl(args, { KAFKA_BROKERS: brokers.join(','), KAFKA_NAMESPACE: namespace, ...env });

  before(async () => {
    await bus.ensureTopics([{ topic: full, partitions: 1 }, { topic: deadLetterTopic(full), partitions: 1 }]);
    await bus.subscribe({
      groupId: `${namespace}dispatcher`,
      topics: [full],
      maxAttempts: 1,
      handler: async (message) => {
        handled.push(message);
        if (failing) throw new Error('receiver table missing');
      },
    });
    await bus.publish(full, [{ key: 'channel-1', value: { post_id: 'p1' } }]);
    for (const until = Date.now() + 30_000; handled.length === 0 && Date.now() < until; ) await new Promise((r) => setTimeout(r, 50));
  });
  after(() => bus.close());

  it('when a consumer gave up on an event, then `dead-letters list` shows it (table and JSON) with its group and reason', async () => {
    let letters: Array<{ offset: string; partition: number; group: string; reason: string; topic: string; value: string; republished: boolean }> = [];
    for (const until = Date.now() + 30_000; letters.length === 0 && Date.now() < until; ) {
      const listed = await ctl(['--json', 'dead-letters', 'list', '--topic', topic]);
      assert.equal(listed.code, 0, listed.stderr);
      letters = JSON.parse(listed.stdout) as typeof letters;
    }
    assert.equal(letters.length, 1);
    assert.deepEqual([letters[0]?.topic, letters[0]?.group, letters[0]?.reason, JSON.parse(letters[0]?.value ?? 'null')], [full, `${namespace}dispatcher`, 'receiver table missing', { post_id: 'p1' }]);
    const text = await ctl(['dead-letters', 'list']);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, new RegExp(`^${deadLetterTopic(full).replace(/\./g, '\\.')} +0:${letters[0]?.offset} .*${namespace.replace(/\./g, '\\.')}dispatcher +1 +channel-1 +no +receiver table missing$`, 'm'));
  });

  it('when the pending dead letters are re-published, then the consumer handles the event again, once', async () => {
    failing = false;
    const before = handled.length;
    const first = await ctl(['dead-letters', 'republish', '--topic', topic, '--pending']);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^re-published 1 dead letter from /m);
    const second = await ctl(['dead-letters', 'republish', '--topic', `${topic}.dlq`, '--pending']);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /^re-published 0 dead letters from /m);
    for (const until = Date.now() + 30_000; handled.length === before && Date.now() < until; ) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 1000));
    const again = handled.slice(before);
    assert.equal(again.length, 1);
    assert.deepEqual(again[0]?.value, { post_id: 'p1' });
    assert.match(again[0]?.headers['x-dlq-republished-from'] ?? '', new RegExp(`^${deadLetterTopic(full).replace(/\./g, '\\.')}/0/\\d+$`));
    const listed = await ctl(['--json', 'dead-letters', 'list', '--topic', topic]);
    assert.deepEqual((JSON.parse(listed.stdout) as Array<{ republished: boolean }>).map((l) => l.republished), [true]);
  });

  it('when the command line or the environment is wrong, then exit 2 with the reason', async () => {
    const noKafka = await ctl(['dead-letters', 'list'], { KAFKA_BROKERS: '' });
    assert.equal(noKafka.code, 2);
    assert.match(noKafka.stderr, /KAFKA_BROKERS is not set/);
    const both = await ctl(['dead-letters', 'republish', '--topic', topic]);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--offset PARTITION:OFFSET .* or --pending/);
    const badOffset = await ctl(['dead-letters', 'republish', '--topic', topic, '--offset', 'zero']);
    assert.equal(badOffset.code, 2);
    const missing = await ctl(['dead-letters', 'republish', '--topic', topic, '--offset', '0:999999']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /not found in .*0:999999/);
  });
});

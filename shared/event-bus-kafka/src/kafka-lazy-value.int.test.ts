import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import { deadLetterTopic, EVENT_TYPE_HEADER, eventTypeOf, type BusMessage } from '@switchyard/event-bus';
import { waitFor } from '@switchyard/event-bus/contract';
import { DLQ_HEADERS, KafkaEventBus } from './index';
import { SKIP_WITHOUT_BROKER, testBrokers, testBusOptions } from './test-support/broker';
import { committedCount } from './test-support/group-state';

// Values decoded on first read, and the event-type header that lets a handler skip a message without decoding it.

describe('KafkaEventBus values decoded when read, against a real broker', { skip: testBrokers.length === 0 ? SKIP_WITHOUT_BROKER : false }, () => {
  const run = randomUUID().slice(0, 8);
  const topic = (label: string): string => `lazy.${run}.${label}`;
  let bus: KafkaEventBus;
  const kafka = new Kafka({ clientId: 'lazy-test-raw', brokers: [...testBrokers], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  let raw: Producer;

  before(async () => {
    bus = new KafkaEventBus(testBusOptions('lazy-a'));
    raw = kafka.producer();
    await Promise.all([admin.connect(), raw.connect()]);
  });
  after(async () => {
    await bus.close();
    await Promise.all([admin.disconnect(), raw.disconnect()]);
  });

  it('when an envelope is published, then it carries its type in the event-type header; other values carry none and a caller\'s own header is kept', async () => {
    const t = topic('header');
    await bus.ensureTopics([t], 1);
    const got: BusMessage[] = [];
    const sub = await bus.subscribe({ groupId: `g-${t}`, topics: [t], handler: async (m) => void got.push(m) });
    await bus.publish(t, [
      { key: 'k', value: { id: 'e1', type: 'post.created', version: 1, time: 1, payload: {} } },
      { key: 'k', value: { n: 1 } },
      { key: 'k', value: { type: 'reaction.added' }, headers: { [EVENT_TYPE_HEADER]: 'own' } },
    ]);
    await waitFor(() => got.length === 3, 20_000, 'three deliveries');
    assert.deepEqual(got.map((m) => m.headers[EVENT_TYPE_HEADER]), ['post.created', undefined, 'own']);
    assert.deepEqual(got.map((m) => eventTypeOf(m)), ['post.created', undefined, 'own']);
    assert.deepEqual(got[0]?.value, { id: 'e1', type: 'post.created', version: 1, time: 1, payload: {} });
    await sub.stop();
  });

  it('when a value is not JSON, then a handler that never reads it handles it like any other, and one that reads it has it dead-lettered at once even if it caught the error', async () => {
    const t = topic('undecodable');
    await bus.ensureTopics([t, deadLetterTopic(t)], 1);
    const skipped: string[] = [];
    const reads: { offset: string; error?: string; n?: number }[] = [];
    const dead: BusMessage[] = [];
    // The dead-letter reader looks at headers only: it never decodes the (still undecodable) value.
    const dlqSub = await bus.subscribe({ groupId: `g-dlq-${t}`, topics: [deadLetterTopic(t)], handler: async (m) => void dead.push(m) });
    const headersOnly = await bus.subscribe({ groupId: `g-headers-${t}`, topics: [t], maxAttempts: 3, handler: async (m) => void skipped.push(m.headers[EVENT_TYPE_HEADER] ?? '') });
    const reader = await bus.subscribe({
      groupId: `g-reader-${t}`,
      topics: [t],
      maxAttempts: 3,
      handler: async (m) => {
        try {
          reads.push({ offset: m.offset, n: (m.value as { n: number }).n });
        } catch (error) {
          reads.push({ offset: m.offset, error: (error as Error).message });
        }
      },
    });
    await raw.send({ topic: t, messages: [{ key: 'k', value: '{not json', headers: { [EVENT_TYPE_HEADER]: 'post.updated' } }, { key: 'k', value: '{"n":1}', headers: { [EVENT_TYPE_HEADER]: 'post.created' } }] });
    await Promise.all([committedCount(admin, `g-headers-${t}`, t, 2), committedCount(admin, `g-reader-${t}`, t, 2)]);
    await waitFor(() => dead.length === 1, 20_000, 'the dead letter');
    assert.deepEqual(skipped, ['post.updated', 'post.created']);
    assert.equal(reads.length, 2, 'the undecodable one once (no retry), then the next');
    assert.match(reads[0]?.error ?? '', /^value is not JSON: /);
    assert.deepEqual(reads[1], { offset: '1', n: 1 });
    assert.equal(dead[0]?.headers[DLQ_HEADERS.group], `g-reader-${t}`);
    assert.equal(dead[0]?.headers[DLQ_HEADERS.attempts], '0');
    assert.match(dead[0]?.headers[DLQ_HEADERS.reason] ?? '', /^value is not JSON: /);
    const [end] = await admin.fetchTopicOffsets(deadLetterTopic(t));
    assert.equal(end?.high, '1', 'only the group that read it dead-lettered it');
    await Promise.all([headersOnly.stop(), reader.stop(), dlqSub.stop()]);
  });
});

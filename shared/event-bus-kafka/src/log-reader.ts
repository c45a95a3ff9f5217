import { randomBytes } from 'node:crypto';
import type { Admin, Kafka } from 'kafkajs';
import type { BusMessage, LogRange, LogRead, LogReadOptions } from '@switchyard/event-bus';
import { decodeHeaders, decodeValue } from './codec';
import type { KafkaEventBusLogger } from './kafka-log';

export interface LogReaderOptions {
  /** The whole read gives up after this (what was read by then is answered). */
  readonly timeoutMs: number;
  /** Prefix of the reader's throwaway consumer group. */
  readonly groupPrefix: string;
  readonly logger: KafkaEventBusLogger;
}

interface Wanted {
  readonly range: LogRange;
  next: number;
  readonly to: number;
  /** Messages returned at most, and looked at at most (skipped ones included). */
  readonly share: number;
  readonly scanShare: number;
  taken: number;
  scanned: number;
}

/** This range has what it asked for (read to its end, or its share taken or looked at). */
const satisfied = (w: Wanted): boolean => w.next >= w.to || w.taken >= w.share || w.scanned >= w.scanShare;

const keyOf = (topic: string, partition: number): string => `${topic}#${partition}`;

/**
 * A short-lived reader of retained messages (KafkaEventBus.readLog): the log starts are checked first (a
 * range below one is `gone`), then a consumer of a throwaway group (no commits: the broker drops the group
 * once it leaves) seeks each assigned partition to its range's start at its join, takes what it asked for
 * and leaves. kafkajs has no group-less consumer; with the broker's initial rebalance delay at 0 a join
 * takes a few hundred ms.
 */
export async function readKafkaLog(kafka: Kafka, admin: Admin, ranges: readonly LogRange[], maxMessages: number, options: LogReaderOptions, read: LogReadOptions = {}): Promise<LogRead> {
  const share = Math.max(1, Math.floor(maxMessages / Math.max(1, ranges.length)));
  const scanShare = Math.max(1, Math.floor((read.maxScanned ?? maxMessages) / Math.max(1, ranges.length)));
  const wanted = new Map<string, Wanted>();
  const topics = [...new Set(ranges.map((r) => r.topic))];
  for (const topic of topics) {
    const offsets = await admin.fetchTopicOffsets(topic);
    for (const range of ranges.filter((r) => r.topic === topic)) {
      const found = offsets.find((o) => o.partition === range.partition);
      const from = Number(range.from);
      if (!found || !Number.isSafeInteger(from) || from < Number(found.low)) return { messages: [], next: [], gone: true };
      const to = Math.min(Number(range.to), Number(found.high));
      wanted.set(keyOf(topic, range.partition), { range, next: from, to, share, scanShare, taken: 0, scanned: 0 });
    }
  }
  const open = [...wanted.values()].filter((w) => w.next < w.to);
  const messages: BusMessage[] = open.length === 0 ? [] : await consume(kafka, topics, wanted, open.length, options, read.skip);
  return { messages, next: [...wanted.values()].map((w) => ({ topic: w.range.topic, partition: w.range.partition, offset: String(w.next) })), gone: false };
}

async function consume(kafka: Kafka, topics: readonly string[], wanted: Map<string, Wanted>, openCount: number, options: LogReaderOptions, skip: LogReadOptions['skip']): Promise<BusMessage[]> {
  const messages: BusMessage[] = [];
  const consumer = kafka.consumer({
    groupId: `${options.groupPrefix}-${randomBytes(6).toString('hex')}`,
    maxWaitTimeInMs: 100,
    sessionTimeout: 10_000,
    heartbeatInterval: 1000,
    allowAutoTopicCreation: false,
    retry: { retries: 2 },
  });
  let remaining = openCount;
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const timer = setTimeout(finish, options.timeoutMs);
  const settle = (w: Wanted): void => {
    if (satisfied(w)) {
      remaining -= 1;
      if (remaining === 0) finish();
    }
  };
  try {
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
      for (const [topic, partitions] of Object.entries(payload.memberAssignment)) {
        for (const partition of partitions) {
          const w = wanted.get(keyOf(topic, partition));
          if (w && w.next < w.to) consumer.seek({ topic, partition, offset: String(w.next) });
          else consumer.pause([{ topic, partitions: [partition] }]);
        }
      }
    });
    consumer.on(consumer.events.CRASH, () => finish());
    await consumer.connect();
    await consumer.subscribe({ topics: [...topics], fromBeginning: false });
    await consumer.run({
      // Offsets are resolved (else every fetch returns the same messages again), never committed.
      autoCommit: false,
      eachBatchAutoResolve: true,
      eachBatch: async ({ batch }) => {
        const w = wanted.get(keyOf(batch.topic, batch.partition));
        if (!w || satisfied(w)) return;
        for (const record of batch.messages) {
          const offset = Number(record.offset);
          if (offset < w.next) continue;
          if (offset >= w.to || w.taken >= w.share || w.scanned >= w.scanShare) break;
          w.scanned += 1;
          w.next = offset + 1;
          const key = record.key?.toString() ?? '';
          // Told by its key that it is of no use: not decoded.
          if (skip?.(batch.topic, key)) continue;
          const decoded = decodeValue(record.value);
          // Undecodable messages are skipped (the live consumer dead-letters them: no event either).
          if (decoded.ok) {
            messages.push({ topic: batch.topic, partition: batch.partition, offset: record.offset, key, value: decoded.value, json: decoded.json, headers: decodeHeaders(record.headers), attempt: 1 });
            w.taken += 1;
          }
        }
        // Offsets can skip (control records): the batch's last offset counts them.
        if (w.taken < w.share && w.scanned < w.scanShare) w.next = Math.min(w.to, Math.max(w.next, Number(batch.lastOffset()) + 1));
        settle(w);
        if (satisfied(w)) consumer.pause([{ topic: batch.topic, partitions: [batch.partition] }]);
      },
    });
    await done;
  } catch (error) {
    options.logger.warn('event log read failed', { error: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    clearTimeout(timer);
    await consumer.disconnect().catch(() => undefined);
  }
  return messages;
}

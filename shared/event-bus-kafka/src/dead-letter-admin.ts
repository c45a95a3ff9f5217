import { randomBytes } from 'node:crypto';
import { Kafka, logLevel, Partitioners, type Admin, type IHeaders, type SASLOptions } from 'kafkajs';
import { DLQ_HEADERS, decodeHeaders } from './codec';
import type { KafkaSaslOptions, KafkaTlsOptions } from './kafka-options';

/** Header a re-published record carries: where it came from (`<dlq topic>/<partition>/<offset>`). */
export const REPUBLISHED_FROM_HEADER = 'x-dlq-republished-from';
const DLQ_SUFFIX = '.dlq';

export interface DeadLetterAdminOptions {
  readonly brokers: readonly string[];
  readonly ssl?: true | KafkaTlsOptions;
  readonly sasl?: KafkaSaslOptions;
  readonly clientId: string;
  /** The deployment's KAFKA_NAMESPACE: only its dead-letter topics are seen, its marker group is under it. */
  readonly namespace?: string;
  /** Longest a listing waits to read up to the end of the topics (default 30 s). */
  readonly readTimeoutMs?: number;
}

/** One record of a `<topic>.dlq` topic, as the Kafka adapter wrote it (codec.ts deadLetterHeaders). */
export interface DeadLetter {
  readonly dlqTopic: string;
  readonly partition: number;
  readonly offset: string;
  readonly timestamp: number;
  /** The topic it failed on (x-dlq-topic), where a re-publish sends it. */
  readonly topic: string;
  readonly group: string;
  readonly reason: string;
  readonly attempts: number;
  readonly key: string | null;
  readonly value: string | null;
  /** Its headers without the x-dlq-* ones (what the failing consumer saw). */
  readonly headers: Readonly<Record<string, string>>;
  /** Already re-published by `republishPending` (before the marker group's committed offset). */
  readonly republished: boolean;
}

interface RawDeadLetter {
  readonly partition: number;
  readonly offset: string;
  readonly timestamp: string;
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly headers: IHeaders | undefined;
}

/**
 * Lists and re-publishes the dead letters of the Kafka adapter (`<topic>.dlq`, one record per message a
 * consumer gave up on, its bytes unchanged). A re-publish produces the record, key, value and original
 * headers unchanged, to the topic it failed on (every consumer group of that topic gets it again: the
 * consumers are idempotent), with `x-dlq-republished-from`. `republishPending` moves a marker consumer
 * group (`switchyardctl.dlq-republished`, never a member) past what it re-published, so running it twice
 * re-publishes nothing twice.
 */
export class DeadLetterAdmin {
  private readonly kafka: Kafka;
  private readonly admin: Admin;
  private readonly namespace: string;
  private connected = false;

  public constructor(private readonly options: DeadLetterAdminOptions) {
    if (options.brokers.length === 0) throw new Error('DeadLetterAdmin: at least one broker is required');
    this.namespace = options.namespace ?? '';
    this.kafka = new Kafka({
      clientId: options.clientId,
      brokers: [...options.brokers],
      ...(options.ssl === undefined ? {} : { ssl: options.ssl === true ? true : { ...options.ssl } }),
      ...(options.sasl ? { sasl: { ...options.sasl } as SASLOptions } : {}),
      connectionTimeout: 3000,
      logLevel: logLevel.NOTHING,
    });
    this.admin = this.kafka.admin();
  }

  /** The marker group of re-published offsets (under the namespace). */
  public get markerGroup(): string {
    return `${this.namespace}switchyardctl.dlq-republished`;
  }

  /** Every dead-letter topic of the namespace, sorted. */
  public async deadLetterTopics(): Promise<string[]> {
    await this.connect();
    return (await this.admin.listTopics()).filter((t) => t.endsWith(DLQ_SUFFIX) && t.startsWith(this.namespace)).sort();
  }

  /** The dead letters of `dlqTopic`, oldest first per partition; `limit` caps what is returned (the newest kept). */
  public async list(dlqTopic: string, limit = Number.POSITIVE_INFINITY): Promise<DeadLetter[]> {
    const raw = await this.read(dlqTopic);
    const marks = await this.marks(dlqTopic);
    const letters = raw.map((r) => toDeadLetter(dlqTopic, r, BigInt(r.offset) < (marks.get(r.partition) ?? -1n)));
    return letters.slice(Math.max(0, letters.length - limit));
  }

  /** Re-publishes the chosen records (partition + offset) of `dlqTopic`; returns those re-published. */
  public async republish(dlqTopic: string, chosen: ReadonlyArray<{ partition: number; offset: string }>): Promise<DeadLetter[]> {
    const wanted = new Set(chosen.map((c) => `${c.partition}/${BigInt(c.offset).toString()}`));
    const letters = (await this.list(dlqTopic)).filter((l) => wanted.has(`${l.partition}/${l.offset}`));
    await this.produce(letters);
    return letters;
  }

  /** Re-publishes every record after the marker group's offsets, then moves the marker to the end. */
  public async republishPending(dlqTopic: string): Promise<DeadLetter[]> {
    const letters = (await this.list(dlqTopic)).filter((l) => !l.republished);
    await this.produce(letters);
    if (letters.length > 0) {
      const next = new Map<number, bigint>();
      for (const l of letters) next.set(l.partition, BigInt(l.offset) + 1n);
      await this.admin.setOffsets({ groupId: this.markerGroup, topic: dlqTopic, partitions: [...next].map(([partition, offset]) => ({ partition, offset: offset.toString() })) });
    }
    return letters;
  }

  public async close(): Promise<void> {
    if (this.connected) await this.admin.disconnect();
    this.connected = false;
  }

  private async connect(): Promise<void> {
    if (this.connected) return;
    await this.admin.connect();
    this.connected = true;
  }

  private async produce(letters: readonly DeadLetter[]): Promise<void> {
    if (letters.length === 0) return;
    const producer = this.kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    try {
      // One at a time, in order: a topic's per-key order is kept as the dead letters have it.
      for (const l of letters) {
        await producer.send({
          topic: l.topic,
          acks: -1,
          messages: [{ key: l.key, value: l.value, headers: { ...l.headers, [REPUBLISHED_FROM_HEADER]: `${l.dlqTopic}/${l.partition}/${l.offset}` } }],
        });
      }
    } finally {
      await producer.disconnect();
    }
  }

  /** Committed offsets of the marker group on `dlqTopic` (none: nothing re-published yet). */
  private async marks(dlqTopic: string): Promise<Map<number, bigint>> {
    await this.connect();
    const out = new Map<number, bigint>();
    const [offsets] = await this.admin.fetchOffsets({ groupId: this.markerGroup, topics: [dlqTopic] });
    for (const p of offsets?.partitions ?? []) if (BigInt(p.offset) >= 0n) out.set(p.partition, BigInt(p.offset));
    return out;
  }

  /** Every record of the topic from its low to its high watermark, through a throwaway consumer group. */
  private async read(dlqTopic: string): Promise<RawDeadLetter[]> {
    await this.connect();
    const ends = new Map<number, bigint>();
    for (const p of await this.admin.fetchTopicOffsets(dlqTopic)) if (BigInt(p.high) > BigInt(p.low)) ends.set(p.partition, BigInt(p.high));
    if (ends.size === 0) return [];
    const groupId = `${this.namespace}switchyardctl.dlq-read-${randomBytes(6).toString('hex')}`;
    const consumer = this.kafka.consumer({ groupId, sessionTimeout: 10_000, heartbeatInterval: 1000, maxWaitTimeInMs: 500, allowAutoTopicCreation: false });
    const records: RawDeadLetter[] = [];
    const remaining = new Set(ends.keys());
    try {
      await consumer.connect();
      await consumer.subscribe({ topics: [dlqTopic], fromBeginning: true });
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`reading ${dlqTopic} did not reach its end within ${this.options.readTimeoutMs ?? 30_000} ms`)), this.options.readTimeoutMs ?? 30_000);
        consumer
          .run({
            autoCommit: false,
            eachMessage: async ({ partition, message }) => {
              const end = ends.get(partition);
              if (end === undefined || BigInt(message.offset) >= end) return;
              records.push({ partition, offset: message.offset, timestamp: message.timestamp, key: message.key, value: message.value, headers: message.headers });
              if (BigInt(message.offset) + 1n >= end) remaining.delete(partition);
              if (remaining.size === 0) {
                clearTimeout(timer);
                resolve();
              }
            },
          })
          .catch(reject);
      });
    } finally {
      await consumer.disconnect().catch(() => undefined);
      await this.admin.deleteGroups([groupId]).catch(() => undefined);
    }
    return records.sort((a, b) => a.partition - b.partition || (BigInt(a.offset) < BigInt(b.offset) ? -1 : 1));
  }
}

function toDeadLetter(dlqTopic: string, r: RawDeadLetter, republished: boolean): DeadLetter {
  const all = decodeHeaders(r.headers);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(all)) if (!name.startsWith('x-dlq-')) headers[name] = value;
  return {
    dlqTopic,
    partition: r.partition,
    offset: r.offset,
    timestamp: Number(r.timestamp),
    topic: all[DLQ_HEADERS.topic] || dlqTopic.slice(0, -DLQ_SUFFIX.length),
    group: all[DLQ_HEADERS.group] ?? '',
    reason: all[DLQ_HEADERS.reason] ?? '',
    attempts: Number(all[DLQ_HEADERS.attempts] ?? 0),
    key: r.key === null ? null : r.key.toString('utf8'),
    value: r.value === null ? null : r.value.toString('utf8'),
    headers,
    republished,
  };
}

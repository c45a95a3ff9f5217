import { Kafka, Partitioners, type Admin, type Message, type Producer, type SASLOptions } from 'kafkajs';
import type { EventBus, LogRange, LogRead, LogReadOptions, OutgoingMessage, PartitionEnd, SubscribeOptions, Subscription } from '@switchyard/event-bus';
import { kafkaMetrics } from '@switchyard/metrics';
import { encodeValue, errorMessage, withEventType } from './codec';
import { kafkaLogCreator, silentLogger, toKafkaLogLevel, type KafkaEventBusLogger } from './kafka-log';
import { installRequestQueueFix } from './kafkajs-request-queue-fix';
import type { KafkaEventBusOptions, TopicSpec } from './kafka-options';
import type { RawRecord } from './dead-letters';
import { KafkaSubscription } from './kafka-subscription';
import { endOffsetsOf, endsOfUncommitted } from './start-offsets';
import { readKafkaLog } from './log-reader';
import { createMissingTopics, waitForLeaders } from './topic-admin';
import { publishSpan, withTraceContext } from './tracing';

const HEALTH_TIMEOUT_MS = 5000;
/** Log readers (resumes of old event cursors) at once; more wait for one to end. */
const MAX_LOG_READERS = 4;
/** One log read answers what it has after this. */
const LOG_READ_TIMEOUT_MS = 10_000;
/** Publish calls combined into one produce request at most (bounds the request size). */
const MAX_SENDS_PER_REQUEST = 500;

interface PendingSend {
  readonly topic: string;
  readonly records: Message[];
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * The event-bus port on Kafka (kafkajs). Publishing is idempotent with acks from all in-sync replicas
 * and one request in flight, so a key's messages keep their order; concurrent `publish` calls of one
 * bus are sent in call order. Each `subscribe` is its own consumer-group member.
 */
export class KafkaEventBus implements EventBus {
  private readonly kafka: Kafka;
  private readonly producer: Producer;
  private readonly admin: Admin;
  private readonly logger: KafkaEventBusLogger;
  private readonly subscriptions = new Set<KafkaSubscription>();
  private producerReady: Promise<Producer> | undefined;
  private adminReady: Promise<Admin> | undefined;
  private sendTail: Promise<unknown> = Promise.resolve();
  private readonly pending: PendingSend[] = [];
  private flushing = false;
  private closing: Promise<void> | undefined;
  private logReaders = 0;
  private readonly readerQueue: (() => void)[] = [];

  public constructor(private readonly options: KafkaEventBusOptions) {
    if (options.brokers.length === 0) throw new Error('KafkaEventBus: at least one broker is required');
    // kafkajs warns once about its v2 partitioner change; the explicit partitioner below also avoids it.
    process.env.KAFKAJS_NO_PARTITIONER_WARNING ??= '1';
    this.logger = options.logger ?? silentLogger;
    // Without it every broker connection wakes the process ~1,000 times a second while idle.
    if (!installRequestQueueFix()) this.logger.warn('kafkajs request-queue fix not installed: it is written for kafkajs 2.2.4');
    this.kafka = new Kafka({
      clientId: options.clientId,
      brokers: [...options.brokers],
      ...(options.ssl === undefined || options.ssl === false ? {} : { ssl: options.ssl === true ? true : { ...options.ssl } }),
      ...(options.sasl ? { sasl: { ...options.sasl } as SASLOptions } : {}),
      connectionTimeout: options.connectionTimeoutMs ?? 3000,
      requestTimeout: options.requestTimeoutMs ?? 30_000,
      logLevel: toKafkaLogLevel(options.kafkaLogLevel ?? 'warn'),
      logCreator: kafkaLogCreator(this.logger),
    });
    this.producer = this.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    this.admin = this.kafka.admin();
    const { onRequest } = options;
    if (onRequest) this.producer.on(this.producer.events.REQUEST, ({ payload }) => onRequest({ client: 'producer', api: payload.apiName }));
  }

  public async publish<T>(topic: string, messages: readonly OutgoingMessage<T>[]): Promise<void> {
    this.assertOpen();
    if (messages.length === 0) return;
    // Encoded and trace-stamped now, in the caller's context, even if the send waits its turn; an envelope's
    // type goes in a header too, so consumers can skip the types they do not want without decoding them.
    await publishSpan(topic, { 'messaging.batch.message_count': messages.length }, () => {
      const records: Message[] = messages.map((m) => ({ key: m.key, value: encodeValue(m.value), headers: withEventType(withTraceContext(m.headers), m.value) }));
      return this.send(topic, records);
    });
  }

  public async subscribe(options: SubscribeOptions): Promise<Subscription> {
    this.assertOpen();
    if (options.topics.length === 0) throw new Error('subscribe: at least one topic is required');
    const heartbeatIntervalMs = this.options.heartbeatIntervalMs ?? 1000;
    const maxWaitTimeMs = this.options.maxWaitTimeMs ?? 3000;
    const consumer = this.kafka.consumer({
      groupId: options.groupId,
      sessionTimeout: this.options.sessionTimeoutMs ?? 10_000,
      rebalanceTimeout: this.options.rebalanceTimeoutMs ?? 30_000,
      heartbeatInterval: heartbeatIntervalMs,
      maxWaitTimeInMs: maxWaitTimeMs,
      allowAutoTopicCreation: false,
    });
    const { onRequest } = this.options;
    if (onRequest) consumer.on(consumer.events.REQUEST, ({ payload }) => onRequest({ client: 'consumer', groupId: options.groupId, api: payload.apiName }));
    const subscription = new KafkaSubscription(consumer, options, {
      logger: this.logger,
      retryDelayMs: this.options.retryDelayMs ?? 100,
      maxRetryDelayMs: this.options.maxRetryDelayMs ?? 2000,
      heartbeatIntervalMs,
      commitIntervalMs: this.options.commitIntervalMs ?? 250,
      fetchLingerMs: this.options.fetchLingerMs ?? 5,
      startOffsets: async (groupId, topics) => endsOfUncommitted(await this.connectedAdmin(), groupId, topics),
      partitionsConsumedConcurrently: options.partitionsAtOnce ?? this.options.partitionsConsumedConcurrently ?? 1,
      publishDeadLetter: (topic, record) => this.publishRaw(topic, record),
      onHandlerError: this.options.onHandlerError,
      isTransientError: this.options.isTransientError ?? (() => false),
      onStopped: (s) => this.subscriptions.delete(s),
    });
    this.subscriptions.add(subscription);
    await subscription.start();
    return subscription;
  }

  public async endOffsets(topics: readonly string[]): Promise<PartitionEnd[]> {
    return endOffsetsOf(await this.connectedAdmin(), topics);
  }

  /** A short-lived reader per call (log-reader.ts); at most MAX_LOG_READERS at once, the others wait. */
  public async readLog(ranges: readonly LogRange[], maxMessages: number, options?: LogReadOptions): Promise<LogRead> {
    this.assertOpen();
    while (this.logReaders >= MAX_LOG_READERS) await new Promise<void>((resolve) => this.readerQueue.push(resolve));
    this.logReaders += 1;
    try {
      return await readKafkaLog(this.kafka, await this.connectedAdmin(), ranges, maxMessages, { timeoutMs: LOG_READ_TIMEOUT_MS, groupPrefix: `${this.options.clientId}-log-read`, logger: this.logger }, options);
    } finally {
      this.logReaders -= 1;
      this.readerQueue.shift()?.();
    }
  }

  /**
   * Creates the topics that do not exist yet (waiting for their partition leaders) with `partitions`
   * partitions, or `options.partitions[topic]` / `defaultPartitions` when not given. Existing topics are
   * left alone (a different partition count is logged: changing it would move keys between partitions).
   */
  public async ensureTopics(topics: readonly (string | TopicSpec)[], partitions?: number): Promise<void> {
    const specs = new Map<string, number>();
    const retention = new Map<string, number | undefined>();
    for (const entry of topics) {
      const spec: TopicSpec = typeof entry === 'string' ? { topic: entry } : entry;
      specs.set(spec.topic, spec.partitions ?? partitions ?? this.options.partitions?.[spec.topic] ?? this.options.defaultPartitions ?? 3);
      retention.set(spec.topic, spec.retentionMs ?? this.options.retentionMs?.[spec.topic] ?? this.options.defaultRetentionMs);
    }
    if (specs.size === 0) return;
    const admin = await this.connectedAdmin();
    await createMissingTopics(admin, specs, { replicationFactor: this.options.replicationFactor ?? -1, minInsyncReplicas: this.options.minInsyncReplicas, retention });
    await waitForLeaders(admin, specs, this.logger);
  }

  /** Consumer groups whose consumer crashed and has not rejoined after MAX_REJOINS tries: the process may need a restart (liveness). */
  public deadConsumers(): string[] {
    return [...this.subscriptions].filter((s) => !s.healthy).map((s) => s.groupId);
  }

  public async health(): Promise<boolean> {
    if (this.closing) return false;
    if ([...this.subscriptions].some((s) => !s.healthy)) return false;
    try {
      const admin = await this.connectedAdmin();
      const cluster = await withTimeout(admin.describeCluster(), HEALTH_TIMEOUT_MS, 'describeCluster');
      return cluster.brokers.length > 0;
    } catch (error) {
      this.logger.warn('event bus health check failed', { error: errorMessage(error) });
      return false;
    }
  }

  /** Stops every subscription (in-flight messages finish and are committed), then disconnects. */
  public close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.all([...this.subscriptions].map((s) => s.stop()));
      await this.sendTail;
      await Promise.all([
        this.producerReady ? this.producer.disconnect().catch(() => undefined) : undefined,
        this.adminReady ? this.admin.disconnect().catch(() => undefined) : undefined,
      ]);
    })();
    return this.closing;
  }

  /** Dead letters keep the original key and value bytes. */
  private publishRaw(topic: string, record: RawRecord): Promise<void> {
    return this.send(topic, [{ key: record.key, value: record.value, headers: withTraceContext(record.headers) }]);
  }

  /**
   * Sends in call order, one produce request at a time (kafkajs would otherwise interleave them at will),
   * and group-commits: every send queued while a request is in flight goes out together in the next
   * request (one `sendBatch`, messages in call order), so concurrent publishers share a broker round
   * trip instead of queueing one round trip each. Each caller's promise settles with its own batch.
   * Not guarded by `closing`: subscriptions finishing their in-flight message during `close()` may still
   * dead-letter.
   */
  private send(topic: string, records: Message[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ topic, records, resolve, reject });
      if (!this.flushing) {
        this.flushing = true;
        this.sendTail = this.flush();
      }
    });
  }

  private async flush(): Promise<void> {
    try {
      while (this.pending.length > 0) await this.sendTogether(this.pending.splice(0, MAX_SENDS_PER_REQUEST));
    } finally {
      this.flushing = false;
    }
  }

  /**
   * One produce request for the sends (messages in call order). When it fails, the error goes only to the
   * sends it concerns: sends of several topics are tried again topic by topic (a missing topic fails its
   * own callers only), sends refused for their content (a message too large) one by one; any other failure
   * (the broker unreachable) rejects them all, without trying each again. A send tried again after a
   * failure the broker may have partly accepted can be stored twice (at least once, as a caller's retry).
   */
  private async sendTogether(sends: readonly PendingSend[]): Promise<void> {
    const byTopic = new Map<string, Message[]>();
    for (const item of sends) byTopic.set(item.topic, [...(byTopic.get(item.topic) ?? []), ...item.records]);
    try {
      const producer = await this.connectedProducer();
      await producer.sendBatch({ topicMessages: [...byTopic].map(([name, messages]) => ({ topic: name, messages })), acks: -1 });
      for (const [name, messages] of byTopic) kafkaMetrics.produced(name, messages.length);
      for (const item of sends) item.resolve();
    } catch (error) {
      if (sends.length > 1 && byTopic.size > 1) {
        for (const topic of byTopic.keys()) await this.sendTogether(sends.filter((item) => item.topic === topic));
      } else if (sends.length > 1 && isRefusedForContent(error)) {
        for (const item of sends) await this.sendTogether([item]);
      } else {
        for (const [name, messages] of byTopic) kafkaMetrics.produceFailed(name, messages.length);
        for (const item of sends) item.reject(error);
      }
    }
  }

  private assertOpen(): void {
    if (this.closing) throw new Error('event bus is closed');
  }

  private connectedProducer(): Promise<Producer> {
    this.producerReady ??= this.producer.connect().then(
      () => this.producer,
      (error: unknown) => {
        this.producerReady = undefined;
        throw error;
      },
    );
    return this.producerReady;
  }

  private connectedAdmin(): Promise<Admin> {
    this.adminReady ??= this.admin.connect().then(
      () => this.admin,
      (error: unknown) => {
        this.adminReady = undefined;
        throw error;
      },
    );
    return this.adminReady;
  }
}

/** Produce errors about the messages themselves, not the broker: other messages of the request may be fine. */
const CONTENT_ERRORS = new Set(['MESSAGE_TOO_LARGE', 'RECORD_LIST_TOO_LARGE', 'INVALID_RECORD', 'CORRUPT_MESSAGE', 'INVALID_TIMESTAMP']);

function isRefusedForContent(error: unknown): boolean {
  const type = (error as { type?: unknown } | null)?.type;
  return typeof type === 'string' && CONTENT_ERRORS.has(type);
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

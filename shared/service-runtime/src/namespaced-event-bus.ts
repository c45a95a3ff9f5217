import { withTopic, type BatchHandler, type BusMessage, type EventBus, type LogRange, type LogRead, type LogReadOptions, type OutgoingMessage, type PartitionEnd, type SubscribeOptions, type Subscription } from '@switchyard/event-bus';

/**
 * Puts one deployment's topics and consumer groups under a prefix (`KAFKA_NAMESPACE`), so several
 * deployments (test runs, previews) can share one Kafka cluster without reading each other's messages.
 * Handlers see the contract topic names; dead letters land in `<prefix><topic>.dlq`.
 */
export class NamespacedEventBus implements EventBus {
  public constructor(
    private readonly inner: EventBus,
    private readonly prefix: string,
  ) {}

  public publish<T>(topic: string, messages: readonly OutgoingMessage<T>[]): Promise<void> {
    return this.inner.publish(this.prefix + topic, messages);
  }

  public subscribe(options: SubscribeOptions): Promise<Subscription> {
    // Without reading the value: a bus may decode it on first read, and the handler may never need it.
    const strip = (message: BusMessage): BusMessage => (message.topic.startsWith(this.prefix) ? withTopic(message, message.topic.slice(this.prefix.length)) : message);
    const { batchHandler } = options;
    const batch: BatchHandler | undefined = batchHandler && ((messages) => batchHandler(messages.map(strip)));
    return this.inner.subscribe({
      ...options,
      groupId: this.prefix + options.groupId,
      topics: options.topics.map((t) => this.prefix + t),
      handler: (message: BusMessage) => options.handler(strip(message)),
      ...(batch ? { batchHandler: batch } : {}),
    });
  }

  public async endOffsets(topics: readonly string[]): Promise<PartitionEnd[]> {
    if (!this.inner.endOffsets) throw new Error('endOffsets: not supported by the inner bus');
    const ends = await this.inner.endOffsets(topics.map((t) => this.prefix + t));
    return ends.map((end) => ({ ...end, topic: end.topic.slice(this.prefix.length) }));
  }

  public async readLog(ranges: readonly LogRange[], maxMessages: number, options: LogReadOptions = {}): Promise<LogRead> {
    if (!this.inner.readLog) throw new Error('readLog: not supported by the inner bus');
    const strip = (topic: string): string => topic.slice(this.prefix.length);
    const { skip } = options;
    const read = await this.inner.readLog(
      ranges.map((r) => ({ ...r, topic: this.prefix + r.topic })),
      maxMessages,
      { ...options, ...(skip ? { skip: (topic: string, key: string) => skip(strip(topic), key) } : {}) },
    );
    return { gone: read.gone, messages: read.messages.map((m) => ({ ...m, topic: strip(m.topic) })), next: read.next.map((n) => ({ ...n, topic: strip(n.topic) })) };
  }

  public health(): Promise<boolean> {
    return this.inner.health();
  }

  public close(): Promise<void> {
    return this.inner.close();
  }
}

import type { EventBus, LogRange, LogRead, LogReadOptions, OutgoingMessage, PartitionEnd, SubscribeOptions, Subscription } from '@switchyard/event-bus';
import { boundedCheck } from './bounded-check';

/**
 * The event bus with a readiness grace (ADR 0025): `health()` answers true until the inner bus has been
 * failing for `graceMs` on end. Kafka is shared by every pod: a broker restart or a leader election would
 * otherwise take every pod out of its Service at once (a full outage for a blip the clients retry through).
 * A failure that lasts past the grace still unreadies the pod; a consumer dead for good is liveness' job.
 */
export class ReadinessGraceBus implements EventBus {
  private failingSince: number | undefined;

  public constructor(
    private readonly inner: EventBus,
    private readonly graceMs: number,
    private readonly now: () => number = Date.now,
    private readonly checkTimeoutMs?: number,
  ) {}

  public publish<T>(topic: string, messages: readonly OutgoingMessage<T>[]): Promise<void> {
    return this.inner.publish(topic, messages);
  }

  public subscribe(options: SubscribeOptions): Promise<Subscription> {
    return this.inner.subscribe(options);
  }

  /** Passed through: realtime's event cursors start from the partition ends (without it they are off). */
  public endOffsets(topics: readonly string[]): Promise<PartitionEnd[]> {
    if (!this.inner.endOffsets) return Promise.reject(new Error('endOffsets: not supported by the inner bus'));
    return this.inner.endOffsets(topics);
  }

  /** Forwarded like endOffsets: a wrapper that dropped it would turn resumes of older cursors off. */
  public readLog(ranges: readonly LogRange[], maxMessages: number, options?: LogReadOptions): Promise<LogRead> {
    if (!this.inner.readLog) return Promise.reject(new Error('readLog: not supported by the inner bus'));
    return this.inner.readLog(ranges, maxMessages, options);
  }

  public async health(): Promise<boolean> {
    // Bounded: Kafka's own check waits up to 5 s for a broker, longer than the readiness probe's timeout.
    const healthy = await boundedCheck(() => this.inner.health(), this.checkTimeoutMs);
    if (healthy) {
      this.failingSince = undefined;
      return true;
    }
    this.failingSince ??= this.now();
    return this.now() - this.failingSince < this.graceMs;
  }

  public close(): Promise<void> {
    return this.inner.close();
  }
}

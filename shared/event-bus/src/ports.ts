/**
 * The event-bus port. Semantics every adapter guarantees (checked by the contract suite):
 * - `publish` resolves only once the messages are durably accepted (Kafka: acks from all replicas).
 * - Messages with the same key land in the same partition and are handled in publish order.
 * - Each consumer group receives every message at least once; members of one group share partitions.
 * - A handler that throws gets the same message again (attempt + 1) before any later message of its
 *   partition; after `maxAttempts` failures the message goes to `<topic>.dlq` and the partition moves on.
 */
export interface OutgoingMessage<T = unknown> {
  readonly key: string;
  readonly value: T;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface BusMessage<T = unknown> {
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
  readonly key: string;
  /** Read only: the in-process bus hands every group the same deeply frozen value (changing it throws). */
  readonly value: T;
  /**
   * The value's JSON text as the bus read it, when it has it (both adapters do): a consumer that keeps
   * messages can keep this instead of the parsed value (smaller) without serialising it again.
   */
  readonly json?: string;
  readonly headers: Readonly<Record<string, string>>;
  /** 1 on first delivery to this group, then 2, 3, ... on redelivery after a handler failure. */
  readonly attempt: number;
}

export type MessageHandler = (message: BusMessage) => Promise<void>;

/** Handles several consecutive messages of one partition at once, in order. */
export type BatchHandler = (messages: readonly BusMessage[]) => Promise<void>;

export type StartAt = 'earliest' | 'latest';

export interface SubscribeOptions {
  readonly groupId: string;
  readonly topics: readonly string[];
  readonly handler: MessageHandler;
  /**
   * Optional. Consecutive messages of one partition that the member already has (at most `maxBatchSize`)
   * go to this in one call, in offset order; when it resolves, all of them are handled. When it throws,
   * the same messages are handled again one at a time through `handler` (attempts, retries and
   * dead-lettering as usual), so a batch handler needs no per-message failure path: it must only be safe
   * to repeat per message (delivery is at least once anyway). Messages already redelivered (attempt > 1)
   * never go to it.
   */
  readonly batchHandler?: BatchHandler;
  /** Most messages per `batchHandler` call. Default 100. */
  readonly maxBatchSize?: number;
  /** Deliveries of one message before it is dead-lettered. Default 5. */
  readonly maxAttempts?: number;
  /**
   * Where the group starts on a partition it has never committed (its first join; afterwards it always
   * resumes after its last committed offset). ADR 0002.
   * - `'earliest'`, the default: the oldest retained message. For durable groups (one shared name, every
   *   replica a member): nothing published before the group first joined is skipped, such as the backlog of
   *   a fresh deployment whose consumers start after its publishers.
   * - `'latest'`: only messages published once `subscribe` resolved. For broadcast groups (a new group per
   *   replica and start: caches, config followers, WebSocket fan-out) that want changes from now on, not
   *   the retained history. That end is fixed once, by the group's first subscribe: a member that rejoins
   *   (a rebalance, a restart after a crash) or a later subscribe of the group goes on from there or its
   *   commits, never from a later end, so nothing published after that first subscribe is skipped.
   */
  readonly startAt?: StartAt;
  /**
   * How many of its partitions one member handles at the same time; messages of one partition are still
   * handled one after the other, in order. Default: the bus's setting (Kafka: 1). The in-process bus
   * already runs its partitions side by side.
   */
  readonly partitionsAtOnce?: number;
  /**
   * For a group whose messages may wait (notifications, not answers someone waits for): a member that got
   * messages fetches again at the earliest this long after its previous fetch, so a busy topic costs it
   * one fetch per this long instead of one per few messages. Default: the bus's setting (Kafka: 5 ms,
   * ADR 0017). A function is asked before each wait (undefined: the bus's setting), so a group that only at
   * times has someone waiting for its messages can wait long only while nobody does (then `wake()`).
   * The in-process bus hands messages over at once and ignores it.
   */
  readonly fetchLingerMs?: number | (() => number | undefined);
}

export interface Subscription {
  /** Stops handling; the in-flight message finishes and is committed first. */
  stop(): Promise<void>;
  /** Ends a fetch linger now (someone started waiting for a message). No-op where nothing lingers. */
  wake?(): void;
}

export interface EventPublisher {
  publish<T>(topic: string, messages: readonly OutgoingMessage<T>[]): Promise<void>;
}

/** Where the next message of a partition will go. */
export interface PartitionEnd {
  readonly topic: string;
  readonly partition: number;
  /** The offset the next message published to the partition gets. */
  readonly offset: string;
}

/** A stretch of one partition's log to read: offsets `from` (included) to `to` (excluded). */
export interface LogRange {
  readonly topic: string;
  readonly partition: number;
  readonly from: string;
  readonly to: string;
}

/** How `readLog` reads. */
export interface LogReadOptions {
  /**
   * Messages the caller has no use for, told by their topic and key alone: not decoded and not returned, but
   * read past (`next` goes beyond them). Called once per message looked at, before its value is decoded.
   */
  readonly skip?: (topic: string, key: string) => boolean;
  /** Messages looked at in all, skipped ones included (default `maxMessages`): bounds the work of one read. */
  readonly maxScanned?: number;
}

/** What `readLog` read. */
export interface LogRead {
  /** The messages read, in offset order per partition (attempt 1). */
  readonly messages: readonly BusMessage[];
  /** Per range asked, the next offset to read (its `to` when read to the end; less when cut by the bound). */
  readonly next: readonly { readonly topic: string; readonly partition: number; readonly offset: string }[];
  /** A range starts below what the log still retains (retention removed it): nothing was read. */
  readonly gone: boolean;
}

export interface EventBus extends EventPublisher {
  subscribe(options: SubscribeOptions): Promise<Subscription>;
  /**
   * The end of every partition of `topics` now (the offset the next message gets). Optional: a consumer that
   * keeps its own position (realtime's event cursors) starts from it.
   */
  endOffsets?(topics: readonly string[]): Promise<PartitionEnd[]>;
  /**
   * Reads retained messages of partitions (no consumer group, no commit): each range from its `from` on, at
   * most `maxMessages` returned in all (and `options.maxScanned` looked at, skipped ones included; each range
   * gets an equal share of both). Optional: realtime resumes event cursors older than what it holds from it.
   */
  readLog?(ranges: readonly LogRange[], maxMessages: number, options?: LogReadOptions): Promise<LogRead>;
  health(): Promise<boolean>;
  close(): Promise<void>;
}

export const deadLetterTopic = (topic: string): string => `${topic}.dlq`;
export const DEFAULT_MAX_ATTEMPTS = 5;
export const DEFAULT_MAX_BATCH_SIZE = 100;

/** The batch bound a subscription asked for: a whole number of at least 1 (not finite: the default). */
export function maxBatchSizeOf(options: Pick<SubscribeOptions, 'maxBatchSize'>): number {
  const size = options.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE;
  return Number.isFinite(size) ? Math.max(1, Math.floor(size)) : DEFAULT_MAX_BATCH_SIZE;
}

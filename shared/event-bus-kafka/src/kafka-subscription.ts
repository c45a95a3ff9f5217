import { setTimeout as delay } from 'node:timers/promises';
import type { Consumer, EachBatchPayload, KafkaMessage } from 'kafkajs';
import { maxBatchSizeOf, type BusMessage, type SubscribeOptions, type Subscription } from '@switchyard/event-bus';
import { kafkaMetrics } from '@switchyard/metrics';
import { decodedRun, deliverRun } from './batch-run';
import { errorMessage, nextOffset } from './codec';
import { FetchLinger } from './fetch-linger';
import type { RawRecord } from './dead-letters';
import type { KafkaEventBusLogger } from './kafka-log';
import { deliverMessage, deliveryContext, withHeartbeat, type DeliveryContext } from './message-delivery';
import { OffsetCommitter } from './offset-committer';
import type { PartitionOffset } from './start-offsets';

export interface KafkaSubscriptionSettings {
  readonly logger: KafkaEventBusLogger;
  readonly retryDelayMs: number;
  readonly maxRetryDelayMs: number;
  readonly heartbeatIntervalMs: number;
  /** Where a group that starts at the end begins: the current end of each partition it never committed. */
  readonly startOffsets: (groupId: string, topics: readonly string[]) => Promise<PartitionOffset[]>;
  readonly partitionsConsumedConcurrently: number;
  /** Handled offsets wait at most this long to be committed, all of the member's partitions in one request. */
  readonly commitIntervalMs: number;
  /** A member that got messages fetches again at the earliest this long after the previous fetch returned. */
  readonly fetchLingerMs: number;
  readonly publishDeadLetter: (topic: string, record: RawRecord) => Promise<void>;
  readonly onHandlerError?: (error: unknown, message: BusMessage) => void;
  /** A failure that spends no attempt (a dependency down for now): retried until it passes or the subscription stops. */
  readonly isTransientError: (error: unknown) => boolean;
  readonly onStopped: (subscription: KafkaSubscription) => void;
}

/** Failed rejoins in a row after a crash kafkajs does not restart from, before the subscription reports itself unhealthy. */
const MAX_REJOINS = 8;

/**
 * One subscription = one kafkajs consumer (one group member). Messages of a partition are handled one
 * at a time; an offset is committed only after its message's handler succeeded or it was dead-lettered
 * (within `commitIntervalMs`, see `eachBatch`).
 * A failing handler is retried in place (blocking its partition, so later messages wait), heartbeating
 * meanwhile. `eachBatch` is used rather than `eachMessage` because kafkajs' `consumer.commitOffsets`
 * is a no-op once `disconnect()` began, and the in-flight message must still be committed then.
 */
export class KafkaSubscription implements Subscription {
  private stopping: Promise<void> | undefined;
  private stopRequested = false;
  private readonly lingering = new FetchLinger();
  private crashed: unknown;
  private readonly committer: OffsetCommitter;
  private readonly delivery: DeliveryContext;
  /** When the latest fetch returned (kafkajs' FETCH event). */
  private fetchedAt = 0;
  /** When `afterHandled` last called `payload.heartbeat()`. */
  private heartbeatCalledAt = 0;
  /**
   * startAt 'latest' only: where each partition goes on after any join (`partition:topic`): the end fixed
   * when subscribing for a partition the group never committed, then past every message this member
   * handled. Kept across joins, so a rejoin (a rebalance, a restart after a crash) neither starts at the
   * end again, skipping what was published meanwhile, nor hands this member what it already handled.
   */
  private readonly positions = new Map<string, PartitionOffset>();
  /** The fixed start (`partition:topic`), committed once after the first join; undefined until fixed. */
  private startToCommit: Set<string> | undefined;

  public constructor(
    private readonly consumer: Consumer,
    private readonly options: SubscribeOptions,
    private readonly settings: KafkaSubscriptionSettings,
  ) {
    this.committer = new OffsetCommitter({ groupId: options.groupId, logger: settings.logger, commitIntervalMs: settings.commitIntervalMs });
    this.delivery = deliveryContext(options, settings);
  }

  public get groupId(): string {
    return this.options.groupId;
  }

  /** False while the consumer could not rejoin after a crash kafkajs does not restart from (MAX_REJOINS tries in a row). */
  public get healthy(): boolean {
    return this.crashed === undefined;
  }

  public async start(): Promise<void> {
    const { consumer, options, settings } = this;
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (payload.restart) return;
      // kafkajs gives up on errors it deems not retriable (an offset commit refused after a broker
      // outage, a fenced member...). The subscription rejoins by itself; while that keeps failing it
      // reports itself unhealthy (the liveness probe then lets an orchestrator restart the process).
      settings.logger.warn('event consumer crashed; rejoining', { groupId: options.groupId, error: errorMessage(payload.error) });
      void this.rejoin(payload.error);
    });
    consumer.on(consumer.events.FETCH, () => {
      this.fetchedAt = Date.now();
    });
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
      // New assignment: lag figures of partitions this member no longer owns would be stale.
      kafkaMetrics.forgetLag(options.groupId);
      // Every assigned partition resumes at its committed offset, so what was handled and not committed
      // comes again (at least once); committing it now could move back a partition another member owns.
      this.committer.joined(new Set(Object.entries(payload.memberAssignment).flatMap(([topic, partitions]) => partitions.map((p) => `${p}:${topic}`))));
      settings.logger.info('event consumer joined its group', {
        groupId: payload.groupId,
        memberId: payload.memberId,
        isLeader: payload.isLeader,
        assignment: payload.memberAssignment,
      });
      for (const [key, position] of this.positions) if (this.committer.isAssigned(key)) consumer.seek(position);
    });
    try {
      await this.connectAndRun();
    } catch (error) {
      await consumer.disconnect().catch(() => undefined);
      settings.onStopped(this);
      throw error;
    }
  }

  private async connectAndRun(): Promise<void> {
    const { consumer, options, settings } = this;
    await consumer.connect();
    // kafkajs' fromBeginning applies only where the group has no committed offset (or it is out of range):
    // a durable group's first join starts at the earliest retained offset, later joins resume after the
    // last commit (ADR 0002).
    const latest = options.startAt === 'latest';
    if (latest && this.startToCommit === undefined) {
      // "The end" is fixed here, once, not by kafkajs at each join: kafkajs resolves a partition without a
      // commit to its end again at every join, so a rejoin before the first commit skipped what was
      // published in between. Seeking at every join (GROUP_JOIN) keeps the fixed start.
      const starts = await settings.startOffsets(options.groupId, options.topics);
      for (const start of starts) this.positions.set(`${start.partition}:${start.topic}`, start);
      this.startToCommit = new Set(this.positions.keys());
    }
    await consumer.subscribe({ topics: [...options.topics], fromBeginning: !latest });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: settings.partitionsConsumedConcurrently,
      eachBatch: (payload) => this.eachBatch(payload),
    });
    await this.commitStart();
  }

  /**
   * Commits the fixed start of the partitions this member got, once (run() resolved: joined), so a later
   * subscribe of the group resumes there rather than at the end of that time. A failure is logged: this
   * subscription keeps its positions anyway.
   */
  private async commitStart(): Promise<void> {
    const keys = this.startToCommit;
    if (!keys || keys.size === 0) return;
    this.startToCommit = new Set();
    const start = [...keys].filter((key) => this.committer.isAssigned(key)).flatMap((key) => this.positions.get(key) ?? []);
    if (start.length === 0) return;
    await this.consumer.commitOffsets(start.map((p) => ({ ...p }))).catch((error: unknown) => {
      this.settings.logger.warn('event consumer: could not commit its start', { groupId: this.options.groupId, error: errorMessage(error) });
    });
  }

  /**
   * After a crash kafkajs does not restart from (it has disconnected the consumer): connect, subscribe and
   * run again, with growing pauses (at most 30 s apart), until it rejoins or the subscription stops.
   * Uncommitted messages are handled again (at least once). After MAX_REJOINS failed attempts in a row the
   * subscription reports itself unhealthy (the liveness probe lets an orchestrator restart the process) but
   * keeps trying, so a process nobody restarts heals by itself once Kafka serves again; it is healthy again
   * from the moment it rejoins.
   */
  private async rejoin(cause: unknown): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      if (this.stopping) return;
      // Unref'd: a pending pause never keeps a stopping process alive.
      await delay(Math.min(30_000, 1000 * 2 ** Math.min(attempt - 1, 5)), undefined, { ref: false });
      if (this.stopping) return;
      try {
        await this.consumer.disconnect().catch(() => undefined);
        await this.connectAndRun();
        this.crashed = undefined;
        this.settings.logger.info('event consumer rejoined after a crash', { groupId: this.options.groupId, attempt });
        return;
      } catch (error) {
        cause = error;
        this.settings.logger.warn('event consumer could not rejoin yet', { groupId: this.options.groupId, attempt, error: errorMessage(error) });
      }
      if (attempt === MAX_REJOINS) {
        this.crashed = cause;
        this.settings.logger.error('event consumer could not rejoin: unhealthy until it does (still trying every 30 s)', { groupId: this.options.groupId, error: errorMessage(cause) });
      }
    }
  }

  /** Finishes (and commits) the in-flight message, leaves the group, disconnects. Idempotent. */
  public stop(): Promise<void> {
    this.stopRequested = true;
    this.wake();
    this.committer.stop();
    // What the timer has not committed yet goes first, while the consumer still runs; the in-flight
    // message (if any) is committed by its batch, which sees stopRequested.
    this.stopping ??= this.committer.commit()
      .catch(() => undefined)
      .then(() => this.consumer.disconnect())
      .catch((error: unknown) => {
        this.settings.logger.warn('event consumer did not disconnect cleanly', { groupId: this.options.groupId, error: errorMessage(error) });
      })
      .finally(() => {
        kafkaMetrics.forgetLag(this.options.groupId);
        this.settings.onStopped(this);
      });
    return this.stopping;
  }

  /**
   * Handles the batch's messages in order: with a batch handler, runs of decodable messages (at most
   * `maxBatchSize`) in one call each, a run whose call threw again one at a time; otherwise (and an
   * undecodable message, which is dead-lettered) one at a time. One heartbeat timer covers the whole batch.
   * A handled offset is not committed at once: the member commits
   * its handled offsets together, every partition in one request, at most `commitIntervalMs` after the
   * first of them (one OffsetCommit per message cost the broker a write to __consumer_offsets each).
   * Stopping, a stale batch or a failure (a rebalance surfaced by the heartbeat) commits at once, in this
   * generation. A crash redelivers at most the last `commitIntervalMs` of handled messages; handlers are
   * idempotent (at least once).
   */
  private async eachBatch(payload: EachBatchPayload): Promise<void> {
    this.committer.commitThrough((offsets) => payload.commitOffsetsIfNecessary(offsets));
    try {
      await withHeartbeat(payload, this.settings.heartbeatIntervalMs, () => this.handleBatch(payload));
    } catch (error) {
      await this.committer.commit();
      throw error;
    }
    if (!this.active(payload)) {
      await this.committer.commit();
      return;
    }
    await this.linger();
  }

  /** Still handling this batch: running, not stale (a rebalance moved the partition), not stopping. */
  private active(payload: EachBatchPayload): boolean {
    return payload.isRunning() && !payload.isStale() && !this.stopRequested;
  }

  /**
   * kafkajs' resolved offset (where it fetches next) and the lag gauge are set once, when the batch ends
   * (normally, stopping or on an error); the commit timer learns of each handled message at once.
   */
  private async handleBatch(payload: EachBatchPayload): Promise<void> {
    const { topic, partition, messages: records } = payload.batch;
    let last: KafkaMessage | undefined;
    try {
      for (let i = 0; i < records.length && this.active(payload); ) {
        const run = this.options.batchHandler ? decodedRun(payload.batch, i, maxBatchSizeOf(this.options)) : [];
        if (run.length > 0 && (await deliverRun(this.options, this.settings.logger, payload.batch, run))) {
          last = run[run.length - 1]?.record;
          i += run.length;
          if (last) await this.afterHandled(payload, last);
          continue;
        }
        // One at a time: no batch handler, an undecodable message (dead-lettered), or a run whose batch call threw.
        const end = i + Math.max(1, run.length);
        for (; i < end && this.active(payload); i += 1) {
          const record = records[i];
          if (!record) return;
          if ((await deliverMessage(this.delivery, payload, record)) === 'abandoned') return;
          last = record;
          await this.afterHandled(payload, record);
        }
      }
    } finally {
      if (last) {
        payload.resolveOffset(last.offset);
        // The partition's end (high watermark) minus the next offset to read.
        kafkaMetrics.lag(topic, partition, this.options.groupId, Number(payload.batch.highWatermark) - Number(last.offset) - 1);
      }
    }
  }

  /** Records everything up to `record` as handled (committed within `commitIntervalMs`), heartbeats when due. */
  private async afterHandled(payload: EachBatchPayload, record: KafkaMessage): Promise<void> {
    this.handled(payload.batch.topic, payload.batch.partition, record.offset);
    // Surfaces a rebalance (kafkajs then rejoins). kafkajs sends one only once the heartbeat interval
    // elapsed, so calling it sooner only costs a promise per message. Skipped while stopping (it would
    // only rejoin).
    const now = Date.now();
    if (now - this.heartbeatCalledAt < this.settings.heartbeatIntervalMs || !payload.isRunning()) return;
    this.heartbeatCalledAt = now;
    await payload.heartbeat();
  }

  /**
   * Holds the next fetch (kafkajs fetches again once every batch of the previous one was handled) until
   * `fetchLingerMs` (the subscription's, else the bus's) after the previous one returned: a busy member takes
   * what arrived meanwhile in one fetch (each is a broker request). An idle member is not held (it long-polls).
   */
  private async linger(): Promise<void> {
    const own = this.options.fetchLingerMs;
    if (!this.stopRequested) await this.lingering.until(this.fetchedAt + ((typeof own === 'function' ? own() : own) ?? this.settings.fetchLingerMs));
  }

  public wake = (): void => this.lingering.wake(); // Subscription.wake; stop() too (an own linger may be long)

  /** Records a handled offset: where a rejoin resumes (startAt latest) and what the committer commits. */
  private handled(topic: string, partition: number, offset: string): void {
    const key = `${partition}:${topic}`;
    if (this.options.startAt === 'latest') this.positions.set(key, { topic, partition, offset: nextOffset(offset) });
    this.committer.handled(key, topic, partition, nextOffset(offset));
  }
}

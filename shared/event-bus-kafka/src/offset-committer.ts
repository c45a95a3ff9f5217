import type { KafkaEventBusLogger } from './kafka-log';
import { errorMessage } from './codec';

/** Offsets in the shape of kafkajs' `commitOffsetsIfNecessary`. */
export interface OffsetsToCommit {
  readonly topics: { topic: string; partitions: { partition: number; offset: string }[] }[];
}

/** A partition's next offset to read once everything before it was handled. */
interface HandledOffset {
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
}

export interface OffsetCommitterSettings {
  readonly groupId: string;
  readonly logger: KafkaEventBusLogger;
  /** Longest a handled offset waits for its commit. */
  readonly commitIntervalMs: number;
}

/** Longest wait between retries of a failed timed commit. */
const MAX_COMMIT_RETRY_MS = 5_000;

/**
 * The handled offsets of one group member and their commits: every partition in one OffsetCommit, at most
 * `commitIntervalMs` after the first uncommitted one (one OffsetCommit per message cost the broker a write to
 * __consumer_offsets each); at once when asked (`commit()`: stopping, a stale batch, a failure). Only the
 * partitions of the latest join are recorded: offsets of an older generation could move back a partition
 * another member owns now.
 */
export class OffsetCommitter {
  /** Handled and not yet committed, by `partition:topic`. */
  private readonly uncommitted = new Map<string, HandledOffset>();
  /** The partitions of the latest join (`partition:topic`): a batch of an older generation records nothing. */
  private assigned = new Set<string>();
  /** Commits through the consumer group of the latest batch (the path that still works while disconnecting). */
  private commitVia: ((offsets: OffsetsToCommit) => Promise<void>) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private tail: Promise<void> = Promise.resolve();
  private failures = 0;
  private stopped = false;

  public constructor(private readonly settings: OffsetCommitterSettings) {}

  /**
   * A new join with these partitions (`partition:topic`): every assigned partition resumes at its committed
   * offset, so what was handled and not committed comes again (at least once) and is dropped here.
   */
  public joined(assigned: ReadonlySet<string>): void {
    this.uncommitted.clear();
    this.commitVia = undefined;
    this.assigned = new Set(assigned);
  }

  public isAssigned(key: string): boolean {
    return this.assigned.has(key);
  }

  /** Commits go through this function (the latest batch's `commitOffsetsIfNecessary`). */
  public commitThrough(commit: (offsets: OffsetsToCommit) => Promise<void>): void {
    this.commitVia = commit;
  }

  /** Records `nextOffset` as the partition's next to read and makes sure a commit follows within `commitIntervalMs`. */
  public handled(key: string, topic: string, partition: number, nextOffset: string): void {
    if (!this.assigned.has(key)) return;
    this.uncommitted.set(key, { topic, partition, offset: nextOffset });
    this.schedule(this.settings.commitIntervalMs);
  }

  /** No more timed commits (the caller commits what is left with `commit()`). */
  public stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Commits every handled offset not committed yet, one request at a time; rejects (logged) when the commit failed. */
  public commit(): Promise<void> {
    const run = this.tail.then(() => this.commitNow());
    this.tail = run.catch(() => undefined);
    return run;
  }

  private schedule(ms: number): void {
    if (this.timer !== undefined || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.commit().then(
        () => {
          this.failures = 0;
        },
        () => {
          // Retried (the offsets stay uncommitted meanwhile: at worst handled again after a crash).
          this.failures += 1;
          if (this.uncommitted.size > 0) this.schedule(Math.min(MAX_COMMIT_RETRY_MS, this.settings.commitIntervalMs * 2 ** this.failures));
        },
      );
    }, ms);
    this.timer.unref();
  }

  private async commitNow(): Promise<void> {
    const commit = this.commitVia;
    if (this.uncommitted.size === 0 || commit === undefined) return;
    const entries = [...this.uncommitted.entries()];
    const byTopic = new Map<string, { partition: number; offset: string }[]>();
    for (const [, { topic, partition, offset }] of entries) byTopic.set(topic, [...(byTopic.get(topic) ?? []), { partition, offset }]);
    try {
      await commit({ topics: [...byTopic].map(([topic, partitions]) => ({ topic, partitions })) });
    } catch (error) {
      // Not committed: the next owner of the partition handles these messages again (at least once).
      this.settings.logger.warn('event consumer: offset commit failed', {
        groupId: this.settings.groupId,
        offsets: entries.map(([, e]) => `${e.topic}/${e.partition}@${e.offset}`),
        error: errorMessage(error),
      });
      throw error;
    }
    // Entries handled meanwhile (a later offset) stay for the next commit.
    for (const [key, entry] of entries) if (this.uncommitted.get(key) === entry) this.uncommitted.delete(key);
  }
}

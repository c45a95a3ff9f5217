/**
 * Where the in-process bus keeps its log and its consumer groups' positions so they survive a restart
 * (the embedded runtime's SQLite store). Without one the bus is memory only.
 */
export interface JournalEntry {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  readonly key: string;
  /** The value as JSON. */
  readonly json: string;
  readonly headers: Readonly<Record<string, string>>;
}

export interface JournalState {
  /** Retained messages of each partition, from `base` on, in offset order without gaps. */
  readonly partitions: readonly {
    readonly topic: string;
    readonly partition: number;
    readonly base: number;
    readonly messages: readonly Omit<JournalEntry, 'topic' | 'partition' | 'offset'>[];
  }[];
  /** Next offset to handle, per group and partition. */
  readonly offsets: readonly { readonly groupId: string; readonly topic: string; readonly partition: number; readonly next: number }[];
}

/** Retained history of one partition (`history`): what is kept of it from an offset on. */
export interface JournalHistory {
  /** The first offset of the partition still kept (undefined: nothing kept). */
  readonly first: number | undefined;
  /**
   * The messages looked at from the offset asked for (consecutive offsets, none when it is below `first`),
   * less those `skip` refused.
   */
  readonly entries: readonly Omit<JournalEntry, 'topic' | 'partition'>[];
  /** The offset after the last message looked at (the offset asked for when none was). */
  readonly next: number;
}

/** How `history` reads. */
export interface JournalHistoryOptions {
  /** Messages not wanted, by key: looked at (counted in `next`) but neither returned nor their value read. */
  readonly skip?: (key: string) => boolean;
  /** Messages looked at at most, skipped ones included (default: `max`). */
  readonly maxScanned?: number;
}

export interface EventJournal {
  load(): JournalState;
  /**
   * Stores published messages (at the latest with the store's next commit, in the same transaction as the
   * publisher's writes; a message every group handled before that may be left out); rejects when the
   * store can no longer write.
   */
  append(entries: readonly JournalEntry[]): Promise<void>;
  /** Records a group's position (written with the next batch; a crash may replay a few: at-least-once). */
  commit(groupId: string, topic: string, partition: number, next: number): void;
  /** Every group has handled the partition's messages below `base`: they may go. */
  trim(topic: string, partition: number, base: number): void;
  /** Drops the positions of groups that no longer exist. */
  forget(groupIds: readonly string[]): void;
  /**
   * Optional: what the journal keeps of a partition's messages whatever the groups handled (its history
   * topics, for a retention time), from offset `from` to `to` (excluded), at most `max` of them returned.
   */
  history?(topic: string, partition: number, from: number, to: number, max: number, options?: JournalHistoryOptions): JournalHistory;
}

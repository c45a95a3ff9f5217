import type { BusMessage, SubscribeOptions } from './ports';
import type { EventJournal } from './journal';
import type { Partition } from './memory-log';

/** The in-process bus's options and the state it keeps per consumer group and partition. */

export interface Member {
  readonly options: SubscribeOptions;
  stopped: boolean;
  readonly running: Set<Promise<void>>;
}

export interface Group {
  readonly id: string;
  readonly members: Member[];
  /** partition key `topic#n` → next offset to handle. */
  readonly committed: Map<string, number>;
  /** partition key → the member that owns it now. */
  readonly owners: Map<string, Member>;
  /** partition keys with a pump running. */
  readonly pumping: Set<string>;
}

export interface LocatedPartition {
  readonly topic: string;
  readonly index: number;
  readonly partition: Partition | undefined;
}

export interface MemoryEventBusOptions {
  /** Partitions per topic; topics not listed get `defaultPartitions`. */
  readonly partitions?: Readonly<Record<string, number>>;
  readonly defaultPartitions?: number;
  /** Delay before a failed message is handed over again: attempt × this, capped at 1 s. */
  readonly retryDelayMs?: number;
  readonly onHandlerError?: (error: unknown, message: BusMessage) => void;
  /**
   * Keeps the log and the groups' positions durable: publish resolves once the journal took the messages
   * (rejects when it cannot), and a new bus on the same journal resumes every group where it stopped (at-least-once).
   */
  readonly journal?: EventJournal;
}

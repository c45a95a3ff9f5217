import type { EventJournal } from './journal';
import { firstDelivery, type Partition, type StoredMessage } from './memory-log';
import type { BusMessage, LogRange, LogReadOptions } from './ports';

/** The bounds of one range's read: messages returned and looked at (skipped ones included). */
export interface RangeShare {
  readonly max: number;
  readonly maxScanned: number;
  readonly skip?: LogReadOptions['skip'];
}

/**
 * One range of `MemoryEventBus.readLog`: the journal's history for what the partition no longer holds in
 * memory, then its log in memory; at most `share.max` messages returned and `share.maxScanned` looked at
 * (a skipped message is not parsed). Undefined when the range starts below what is kept (trimmed without
 * history, or older than the history's retention).
 */
export function readPartition(range: LogRange, partition: Partition, share: RangeShare, journal: EventJournal | undefined): { messages: BusMessage[]; next: number } | undefined {
  const end = partition.base + partition.log.length;
  const to = Math.min(Number(range.to), end);
  let at = Number(range.from);
  if (!Number.isSafeInteger(at) || !Number.isSafeInteger(to) || at < 0) return undefined;
  const messages: BusMessage[] = [];
  let scanned = 0;
  const room = (): boolean => messages.length < share.max && scanned < share.maxScanned;
  const look = (offset: number, stored: StoredMessage): void => {
    scanned += 1;
    // Parsed here (not through the partition's parsed run, which the live groups use).
    if (!share.skip?.(range.topic, stored.key)) messages.push(firstDelivery(range.topic, range.partition, offset, stored, JSON.parse(stored.json) as unknown));
  };
  if (at < partition.base && at < to) {
    // The history filters by key itself (a skipped message's value is never read).
    const skip = share.skip;
    const history = journal?.history?.(range.topic, range.partition, at, Math.min(to, partition.base), share.max, {
      maxScanned: share.maxScanned,
      ...(skip ? { skip: (key: string) => skip(range.topic, key) } : {}),
    });
    if (!history || history.first === undefined || history.first > at) return undefined;
    for (const entry of history.entries) messages.push(firstDelivery(range.topic, range.partition, entry.offset, entry, JSON.parse(entry.json) as unknown));
    scanned += history.next - at;
    at = history.next;
    // History has a hole before what memory holds (should not happen): what follows is not read.
    if (at < partition.base && at < to && room()) return at === Number(range.from) ? undefined : { messages, next: at };
  }
  for (; at < to && room(); at += 1) {
    const stored = partition.log[at - partition.base];
    if (!stored) break;
    look(at, stored);
  }
  return { messages, next: at };
}

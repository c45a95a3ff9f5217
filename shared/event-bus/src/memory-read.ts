import type { EventJournal } from './journal';
import { firstDelivery, type Partition } from './memory-log';
import type { BusMessage, LogRange } from './ports';

/**
 * One range of `MemoryEventBus.readLog`: the journal's history for what the partition no longer holds in
 * memory, then its log in memory; at most `max` messages. Undefined when the range starts below what is
 * kept (trimmed without history, or older than the history's retention).
 */
export function readPartition(range: LogRange, partition: Partition, max: number, journal: EventJournal | undefined): { messages: BusMessage[]; next: number } | undefined {
  const end = partition.base + partition.log.length;
  const to = Math.min(Number(range.to), end);
  let at = Number(range.from);
  if (!Number.isSafeInteger(at) || !Number.isSafeInteger(to) || at < 0) return undefined;
  const messages: BusMessage[] = [];
  if (at < partition.base && at < to) {
    const history = journal?.history?.(range.topic, range.partition, at, Math.min(to, partition.base), max);
    if (!history || history.first === undefined || history.first > at) return undefined;
    for (const entry of history.entries) {
      if (entry.offset !== at) break;
      messages.push(firstDelivery(range.topic, range.partition, at, entry, JSON.parse(entry.json) as unknown));
      at += 1;
    }
    // History has a hole before what memory holds (should not happen): what follows is not read.
    if (at < partition.base && messages.length < max) return at === Number(range.from) ? undefined : { messages, next: at };
  }
  for (; at < to && messages.length < max; at += 1) {
    const stored = partition.log[at - partition.base];
    if (!stored) break;
    // Parsed here (not through the partition's parsed run, which the live groups use).
    messages.push(firstDelivery(range.topic, range.partition, at, stored, JSON.parse(stored.json) as unknown));
  }
  return { messages, next: at };
}

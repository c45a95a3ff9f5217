import type { BusMessage, LogRange, LogRead, LogReadOptions } from '@switchyard/event-bus';
import type { StreamPosition } from './cursor';
import { EventStream, type StreamRecord, type StreamSnapshot } from './event-stream';
import { factsOf } from './stream-record';

/** Reads retained messages of the log (the bus's `readLog`): resumes of cursors older than what a replica holds. */
export type LogSource = (ranges: readonly LogRange[], maxMessages: number, options?: LogReadOptions) => Promise<LogRead>;

/** The log no longer has what a cursor needs (retention): the resume is expired. */
export class CursorExpiredError extends Error {
  public constructor() {
    super('event cursor expired: the log no longer has its records');
  }
}

/** Records after a position, in order per partition; `complete` when they reach the snapshot's position. */
export interface RecordsAfter {
  readonly records: StreamRecord[];
  readonly complete: boolean;
  /** Log messages looked at (skipped ones included). */
  readonly scanned: number;
}

export interface RecordsAfterOptions {
  /** Log messages returned at most (each parsed and held). */
  readonly max: number;
  /** Log messages looked at at most, skipped ones included (default `max`). */
  readonly maxScanned?: number;
  /** Only these topics (indexes into `stream.topics`). */
  readonly topics?: readonly number[];
  /** Log messages of no use, told by topic and key before they are parsed (LogReadOptions.skip). */
  readonly skip?: (topic: string, key: string) => boolean;
}

const timeOf = (message: BusMessage): number => {
  const time = (message.value as { time?: unknown } | null)?.time;
  return typeof time === 'number' ? time : 0;
};

interface Queue {
  readonly t: number;
  readonly topic: string;
  readonly partition: number;
  readonly messages: BusMessage[];
  at: number;
  /** More of the partition is left in the log after `next`. */
  readonly cut: boolean;
  /** The next offset to read: every message before it was looked at (returned or skipped). */
  readonly next: number;
  /** The offset after the last message merged (the range's start before any). */
  merged: number;
}

/**
 * The records after `from` up to `snapshot`'s position: first what the replica no longer holds (read from the
 * log, at most `options.max` messages returned: `complete` false when more is left there), merged across
 * partitions by time with each partition's order kept; then, once the log part is read to its end, the
 * replica's own records. Messages the log skipped (`options.skip`) leave no record, but a partition read past
 * its last returned message ends with a marker record (no value: no event) at the last offset looked at, so
 * that a cursor moves past them. Throws CursorExpiredError when the log no longer has a part that is needed
 * (or there is no log to read).
 */
export async function recordsAfter(stream: EventStream, snapshot: StreamSnapshot, log: LogSource | undefined, from: StreamPosition, options: RecordsAfterOptions): Promise<RecordsAfter> {
  const only = options.topics ? new Set(options.topics) : undefined;
  const ranges: (LogRange & { readonly t: number })[] = [];
  snapshot.covered.forEach((partitions, t) => {
    if (only && !only.has(t)) return;
    partitions.forEach((covered, partition) => {
      const asked = from.offsets[t]?.[partition] ?? 0;
      if (asked < covered) ranges.push({ t, topic: stream.topics[t] as string, partition, from: String(asked), to: String(covered) });
    });
  });
  const own = (): StreamRecord[] => snapshot.records.filter((r) => (!only || only.has(r.topic)) && EventStream.after(r, from));
  if (ranges.length === 0) return { records: own(), complete: true, scanned: 0 };
  if (!log) throw new CursorExpiredError();
  const read = await log(
    ranges.map(({ t: _t, ...range }) => range),
    options.max,
    { maxScanned: options.maxScanned ?? options.max, ...(options.skip ? { skip: options.skip } : {}) },
  );
  if (read.gone) throw new CursorExpiredError();
  const queues = new Map<string, Queue>();
  let scanned = 0;
  for (const range of ranges) {
    const found = read.next.find((n) => n.topic === range.topic && n.partition === range.partition);
    const next = Number(found?.offset ?? range.from);
    scanned += Math.max(0, next - Number(range.from));
    queues.set(`${range.topic}#${range.partition}`, { t: range.t, topic: range.topic, partition: range.partition, messages: [], at: 0, cut: next < Number(range.to), next, merged: Number(range.from) });
  }
  for (const message of read.messages) queues.get(`${message.topic}#${message.partition}`)?.messages.push(message);
  const records = merge([...queues.values()], from.time);
  const complete = [...queues.values()].every((q) => !q.cut);
  return { records: complete ? records.concat(own()) : records, complete, scanned };
}

/**
 * Merges the partitions' messages by time, each partition's order kept. A cut queue (more of it left in the
 * log) stops the merge when it runs out: what comes after might be later than its unread messages. Each
 * queue merged to its end and read past its last message (skipped ones) then gets its marker.
 */
function merge(queues: Queue[], since: number): StreamRecord[] {
  const out: StreamRecord[] = [];
  let last = since;
  for (;;) {
    let best: Queue | undefined;
    let bestTime = Infinity;
    let stopped = false;
    for (const q of queues) {
      const head = q.messages[q.at];
      if (!head) {
        if (q.cut) stopped = true;
        continue;
      }
      const time = timeOf(head);
      if (!best || time < bestTime) {
        best = q;
        bestTime = time;
      }
    }
    if (stopped || !best) break;
    const message = best.messages[best.at] as BusMessage;
    best.at += 1;
    best.merged = Number(message.offset) + 1;
    last = Math.max(last, bestTime);
    out.push({ serial: -1, topic: best.t, partition: message.partition, offset: Number(message.offset), time: bestTime, message, ...factsOf(message.topic, message.value) });
  }
  for (const q of queues) {
    if (q.at < q.messages.length || q.next <= q.merged) continue;
    const offset = q.next - 1;
    out.push({ serial: -1, topic: q.t, partition: q.partition, offset, time: last, message: { topic: q.topic, partition: q.partition, offset: String(offset), key: '', value: null, headers: {}, attempt: 1 }, channel: undefined, typing: false });
  }
  return out;
}

/** At most `max` holders at once; `take` waits for a turn and resolves with its release (idempotent). */
export class Turns {
  private taken = 0;
  private readonly queue: (() => void)[] = [];

  public constructor(private readonly max: number) {}

  public async take(): Promise<() => void> {
    while (this.taken >= this.max) await new Promise<void>((resolve) => this.queue.push(resolve));
    this.taken += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.taken -= 1;
      this.queue.shift()?.();
    };
  }
}

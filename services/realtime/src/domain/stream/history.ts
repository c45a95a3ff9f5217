import type { BusMessage, LogRange, LogRead } from '@switchyard/event-bus';
import type { StreamPosition } from './cursor';
import { EventStream, type StreamRecord, type StreamSnapshot } from './event-stream';

/** Reads retained messages of the log (the bus's `readLog`): resumes of cursors older than what a replica holds. */
export type LogSource = (ranges: readonly LogRange[], maxMessages: number) => Promise<LogRead>;

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
}

const timeOf = (message: BusMessage): number => {
  const time = (message.value as { time?: unknown } | null)?.time;
  return typeof time === 'number' ? time : 0;
};

/**
 * The records after `from` up to `snapshot`'s position: first what the replica no longer holds (read from the
 * log, at most `max` messages: `complete` false when more is left there), merged across partitions by time
 * with each partition's order kept; then, once the log part is read to its end, the replica's own records.
 * `topics` (indexes into `stream.topics`) restricts it to those topics. Throws CursorExpiredError when the
 * log no longer has a part that is needed (or there is no log to read).
 */
export async function recordsAfter(stream: EventStream, snapshot: StreamSnapshot, log: LogSource | undefined, from: StreamPosition, max: number, topics?: readonly number[]): Promise<RecordsAfter> {
  const only = topics ? new Set(topics) : undefined;
  const ranges: (LogRange & { readonly t: number })[] = [];
  snapshot.covered.forEach((partitions, t) => {
    if (only && !only.has(t)) return;
    partitions.forEach((covered, partition) => {
      const asked = from.offsets[t]?.[partition] ?? 0;
      if (asked < covered) ranges.push({ t, topic: stream.topics[t] as string, partition, from: String(asked), to: String(covered) });
    });
  });
  const own = (): StreamRecord[] => snapshot.records.filter((r) => (!only || only.has(r.topic)) && EventStream.after(r, from));
  if (ranges.length === 0) return { records: own(), complete: true };
  if (!log) throw new CursorExpiredError();
  const read = await log(
    ranges.map(({ t: _t, ...range }) => range),
    max,
  );
  if (read.gone) throw new CursorExpiredError();
  const queues = new Map<string, { t: number; messages: BusMessage[]; at: number; cut: boolean }>();
  for (const range of ranges) {
    const next = read.next.find((n) => n.topic === range.topic && n.partition === range.partition);
    queues.set(`${range.topic}#${range.partition}`, { t: range.t, messages: [], at: 0, cut: Number(next?.offset ?? range.from) < Number(range.to) });
  }
  for (const message of read.messages) queues.get(`${message.topic}#${message.partition}`)?.messages.push(message);
  const records = merge([...queues.values()]);
  const complete = [...queues.values()].every((q) => !q.cut);
  return { records: complete ? records.concat(own()) : records, complete };
}

/**
 * Merges the partitions' messages by time, each partition's order kept. A cut queue (more of it left in the
 * log) stops the merge when it runs out: what comes after might be later than its unread messages.
 */
function merge(queues: { t: number; messages: BusMessage[]; at: number; cut: boolean }[]): StreamRecord[] {
  const out: StreamRecord[] = [];
  for (;;) {
    let best: (typeof queues)[number] | undefined;
    let bestTime = Infinity;
    for (const q of queues) {
      const head = q.messages[q.at];
      if (!head) {
        if (q.cut) return out;
        continue;
      }
      const time = timeOf(head);
      if (!best || time < bestTime) {
        best = q;
        bestTime = time;
      }
    }
    if (!best) return out;
    const message = best.messages[best.at] as BusMessage;
    best.at += 1;
    out.push({ serial: -1, topic: best.t, partition: message.partition, offset: Number(message.offset), time: bestTime, message });
  }
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

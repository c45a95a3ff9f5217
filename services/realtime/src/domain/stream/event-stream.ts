import type { BusMessage } from '@switchyard/event-bus';
import type { Clock } from '../ports';
import type { StreamPosition } from './cursor';
import { factsOf, KeptRecord, type StreamRecord } from './stream-record';

export type { StreamRecord } from './stream-record';

/** A record in delivery (its message as it came; the record kept when it is handled is compact). */
type InFlight = StreamRecord;

/** `history`: some of it is older than what this replica holds, but within the retention (read from the log). */
export type Coverage = 'complete' | 'history' | 'expired' | 'invalid';

/** What a replica holds at one moment: its records, from where on it holds every record, its position. */
export interface StreamSnapshot {
  readonly records: readonly StreamRecord[];
  readonly covered: readonly (readonly number[])[];
  readonly position: StreamPosition;
}

export interface EventStreamOptions {
  readonly clock: Clock;
  /** Records kept at most (the oldest go first). */
  readonly maxRecords: number;
  /** Their size kept at most (KeptRecord.size: JSON characters and a fixed part per record; the oldest go first); default unbounded. */
  readonly maxBytes?: number;
  /** Records older than this go (ms; 0 = only `maxRecords` bounds them); read at each use (live config). */
  readonly maxAgeMs: number | (() => number);
}

/** A cursor from more than this far in the future is not one of ours (ms). */
const FUTURE_SLACK_MS = 5 * 60_000;

/**
 * This replica's view of the event stream it consumes: its position (per topic and partition, the next offset
 * to handle), the records it handled lately (bounded by count and age) and, per partition, from where on it
 * still has every record it handled (`covered`). A cursor (a position) can be resumed here when every one of
 * its offsets is covered; positions are Kafka's (or the in-process bus's) offsets, so a cursor made by any
 * replica resumes on any other that covers it.
 */
export class EventStream {
  private readonly topicIndex: Map<string, number>;
  private offsets: number[][] = [];
  private covered: number[][] = [];
  /** Kept from `head` on; the slots before it are emptied as their records go (and dropped now and then). */
  private records: (KeptRecord | undefined)[] = [];
  private head = 0;
  /** The size of the records kept (from `head` on). */
  private bytes = 0;
  private serial = 0;
  private readonly listeners = new Set<(record: StreamRecord) => void>();
  /**
   * Records whose events are being delivered now, by topic and partition: a socket that resumes meanwhile was
   * not in their audience, so its replay takes them from the snapshot instead (see `delivering`).
   */
  private inFlight: (InFlight | undefined)[][] = [];
  /** Records in `inFlight` (a snapshot looks only when there are some). */
  private inFlightCount = 0;

  public constructor(
    public readonly topics: readonly string[],
    private readonly options: EventStreamOptions,
  ) {
    this.topicIndex = new Map(topics.map((t, i) => [t, i]));
  }

  /** Where the stream starts: each partition's end when this replica subscribed (before its group joined). */
  public start(ends: readonly { readonly topic: string; readonly partition: number; readonly offset: string }[]): void {
    const offsets: number[][] = this.topics.map(() => []);
    for (const end of ends) {
      const t = this.topicIndex.get(end.topic);
      if (t === undefined) continue;
      const partitions = offsets[t] as number[];
      while (partitions.length <= end.partition) partitions.push(0);
      partitions[end.partition] = Number(end.offset);
    }
    this.offsets = offsets;
    this.covered = offsets.map((p) => [...p]);
    this.inFlight = offsets.map((p) => p.map(() => undefined));
    this.inFlightCount = 0;
  }

  public get started(): boolean {
    return this.offsets.length > 0;
  }

  /** The serial the next record gets. */
  public get nextSerial(): number {
    return this.serial;
  }

  /** The stream's clock now (ms): the time of a position taken now. */
  public timeNow(): number {
    return this.options.clock.now();
  }

  /** Everything handled so far. */
  public position(): StreamPosition {
    return { time: this.options.clock.now(), offsets: this.offsets.map((p) => [...p]) };
  }

  /** The next offset to handle of each partition, as they are (not copied: read them at once, never keep them). */
  public get offsetsNow(): readonly (readonly number[])[] {
    return this.offsets;
  }

  /** Index of a topic in `topics` (-1 when not consumed). */
  public topicOf(topic: string): number {
    return this.topicIndex.get(topic) ?? -1;
  }

  /**
   * Marks a message whose events are about to be delivered: snapshots taken until it is `handled` include it
   * (a connection that resumes while it is delivered replays it; its live copies stay below the floor).
   * Returns its record (the one `handled` keeps), or undefined for what this stream does not track or already
   * handled.
   */
  public delivering(message: BusMessage, time: number | undefined): StreamRecord | undefined {
    const t = this.topicIndex.get(message.topic);
    const partitions = t === undefined ? undefined : this.offsets[t];
    const offset = Number(message.offset);
    if (t === undefined || partitions === undefined || message.partition >= partitions.length || !Number.isSafeInteger(offset)) return undefined;
    if (offset < (partitions[message.partition] ?? 0)) return undefined;
    const slots = this.inFlight[t] as (InFlight | undefined)[];
    if (slots[message.partition] === undefined) this.inFlightCount += 1;
    const record: InFlight = { serial: -1, topic: t, partition: message.partition, offset, time: time ?? this.options.clock.now(), message, ...factsOf(message.topic, message.value) };
    slots[message.partition] = record;
    return record;
  }

  /**
   * Records a handled message and moves the position past it; undefined for a topic or partition this stream
   * does not know, or an offset already handled (a redelivery: nothing new).
   */
  public handled(message: BusMessage, time: number | undefined): StreamRecord | undefined {
    const t = this.topicIndex.get(message.topic);
    const partitions = t === undefined ? undefined : this.offsets[t];
    const offset = Number(message.offset);
    if (t === undefined || partitions === undefined || message.partition >= partitions.length || !Number.isSafeInteger(offset)) return undefined;
    const slots = this.inFlight[t] as (InFlight | undefined)[];
    const inFlight = slots[message.partition];
    if (inFlight !== undefined) {
      slots[message.partition] = undefined;
      this.inFlightCount -= 1;
    }
    if (offset < (partitions[message.partition] ?? 0)) return undefined;
    partitions[message.partition] = offset + 1;
    // Kept compact (its value as JSON); the time and facts found when its delivery began are kept.
    const begun = inFlight?.message === message ? inFlight : undefined;
    const facts = begun ?? factsOf(message.topic, message.value);
    const record = new KeptRecord(this.serial, t, message.partition, offset, begun?.time ?? time ?? this.options.clock.now(), this.topics[t] as string, message.key, message.json, message.value, facts.channel, facts.typing);
    this.serial += 1;
    this.records.push(record);
    this.bytes += record.size;
    this.trim();
    if (this.listeners.size > 0) for (const listener of this.listeners) listener(record);
    return record;
  }

  /** Whether `message` is after this stream's position (not handled yet); true for what it does not track. */
  public fresh(message: BusMessage): boolean {
    const t = this.topicIndex.get(message.topic);
    const partitions = t === undefined ? undefined : this.offsets[t];
    if (partitions === undefined || message.partition >= partitions.length) return true;
    return Number(message.offset) >= (partitions[message.partition] ?? 0);
  }

  /** Whether nothing after `position` is handled or in delivery here (a long-poll that is up to date). */
  public caughtUp(position: StreamPosition): boolean {
    if (this.inFlightCount > 0 || position.offsets.length !== this.offsets.length) return false;
    return this.offsets.every((partitions, t) => partitions.every((offset, p) => (position.offsets[t]?.[p] ?? -1) >= offset));
  }

  /** Whether a position can be resumed here: all of its offsets covered (complete), older (expired), or not ours. */
  public coverage(position: StreamPosition): Coverage {
    if (position.offsets.length !== this.offsets.length) return 'invalid';
    if (position.offsets.some((p, t) => p.length !== (this.offsets[t] as number[]).length)) return 'invalid';
    const now = this.options.clock.now();
    if (position.time > now + FUTURE_SLACK_MS) return 'invalid';
    this.trim();
    const maxAgeMs = this.maxAgeMs();
    if (maxAgeMs > 0 && position.time < now - maxAgeMs) return 'expired';
    for (let t = 0; t < position.offsets.length; t += 1) {
      const asked = position.offsets[t] as readonly number[];
      const from = this.covered[t] as number[];
      for (let p = 0; p < asked.length; p += 1) if ((asked[p] as number) < (from[p] as number)) return maxAgeMs > 0 ? 'history' : 'expired';
    }
    return 'complete';
  }

  /**
   * What this replica holds now (the records are shared, not copied: they never change). With `since` (a
   * serial at least `oldestSerial`), only the records handled from that serial on (and those in delivery):
   * enough for a position taken when `nextSerial` was `since`, every record before that being at or before it.
   */
  public snapshot(since?: number): StreamSnapshot {
    this.trim();
    const position = this.position();
    const delivering: StreamRecord[] = [];
    if (this.inFlightCount > 0) for (const slots of this.inFlight) for (const r of slots) if (r && r.offset >= (position.offsets[r.topic]?.[r.partition] ?? 0)) delivering.push(r);
    for (const r of delivering) (position.offsets[r.topic] as number[])[r.partition] = r.offset + 1;
    const first = since === undefined ? this.head : this.head + Math.max(0, since - this.oldestSerial);
    return { records: (this.records.slice(first) as StreamRecord[]).concat(delivering), covered: this.covered.map((p) => [...p]), position };
  }

  /** Whether `record` comes after `position` (its offset is not below the position's for its partition). */
  public static after(record: StreamRecord, position: StreamPosition): boolean {
    return record.offset >= (position.offsets[record.topic]?.[record.partition] ?? 0);
  }

  /** The records kept with a serial of at least `serial`, in the order they were handled. */
  public since(serial: number): StreamRecord[] {
    this.trim();
    const first = this.records[this.head]?.serial ?? this.serial;
    return this.records.slice(this.head + Math.max(0, serial - first)) as StreamRecord[];
  }

  /** Records kept now, and their size (KeptRecord.size). */
  public get held(): { readonly records: number; readonly bytes: number } {
    return { records: this.records.length - this.head, bytes: this.bytes };
  }

  /** The serial of the oldest record kept (the next one's when none is kept). */
  public get oldestSerial(): number {
    return this.records[this.head]?.serial ?? this.serial;
  }

  /** Calls `listener` with every record handled (once the position is past it) until the returned function is called. */
  public onRecord(listener: (record: StreamRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private maxAgeMs(): number {
    const { maxAgeMs } = this.options;
    const value = typeof maxAgeMs === 'function' ? maxAgeMs() : maxAgeMs;
    return Number.isFinite(value) && value > 0 ? value : 0;
  }

  private trim(): void {
    const { maxRecords } = this.options;
    const maxAgeMs = this.maxAgeMs();
    const oldest = maxAgeMs > 0 ? this.options.clock.now() - maxAgeMs : -Infinity;
    const maxBytes = this.options.maxBytes ?? Infinity;
    while (this.head < this.records.length && (this.records.length - this.head > maxRecords || this.bytes > maxBytes || (this.records[this.head] as KeptRecord).time < oldest)) {
      const gone = this.records[this.head] as KeptRecord;
      this.bytes -= gone.size;
      // Emptied at once: the array keeps its slots until it is compacted (a gone record must not stay reachable).
      this.records[this.head] = undefined;
      const from = this.covered[gone.topic] as number[];
      from[gone.partition] = Math.max(from[gone.partition] ?? 0, gone.offset + 1);
      this.head += 1;
    }
    if (this.head > 1024 && this.head * 2 > this.records.length) {
      this.records = this.records.slice(this.head);
      this.head = 0;
    }
  }
}

import { Topics } from '@switchyard/contracts';
import type { BusMessage } from '@switchyard/event-bus';
import type { Connection } from '../connection';
import type { EventOrigin, HubCursors } from '../hub';
import { eventPrefix, type WsEvent } from '../ws-event';
import type { CursorCodec, StreamPosition } from './cursor';
import type { EventStream, StreamRecord, StreamSnapshot } from './event-stream';
import { recordsAfter, Turns, type LogSource, type RecordsAfter, type RecordsAfterOptions } from './history';
import { CURSOR_OPEN, LiveOrigin } from './live-origin';
import { skipFilter } from './skip-filter';
import { membershipChanges, visibleEvents, type MembershipChanges, type ReplayDeps, type Viewer } from './replay';

export type ResumeStatus = 'complete' | 'expired' | 'invalid' | 'none';

/** A cursor checked for its user: where to resume from when `complete`. */
export interface CheckedCursor {
  readonly status: ResumeStatus;
  readonly position?: StreamPosition;
}

/** One batch of the HTTP event stream: events as WebSocket frames' objects, each with its cursor. */
export interface EventBatch {
  readonly events: Record<string, unknown>[];
  readonly cursor: string;
  /** More is left after `cursor` (older records still to read from the log): ask again at once. */
  readonly more?: boolean;
}

/** A batch with the position it reached (its cursor is made from it when it is answered). */
export interface PositionedBatch {
  readonly events: Record<string, unknown>[];
  readonly position: StreamPosition;
  /** More is left after `position`: ask again at once. */
  readonly more: boolean;
}

/** Records converted per step of a batch (its visible events counted between steps). */
const STEP = 256;
/** Messages read (parsed and held) from the log per round of a resume older than what the replica holds. */
const LOG_CHUNK = 20_000;
/**
 * Messages of the log looked at per round, those skipped by their key included (posts of channels the viewer
 * was never in during the window: not parsed).
 */
const LOG_SCAN = 200_000;
/** Messages of the log read at most by one HTTP batch, and looked at (it answers with the cursor reached, `more`). */
const BATCH_LOG_BUDGET = 20_000;
const BATCH_SCAN_BUDGET = 200_000;
/** channels.events messages read at most to find a viewer's joins and leaves since a cursor. */
const MAX_MEMBERSHIP_SCAN = 1_000_000;
/** Records read from the log but past a batch's limit, kept for the next batch from that cursor (at most, in all). */
const MAX_LEFTOVER_RECORDS = 20_000;
/** Resumes reading the log at once per replica (each holds up to LOG_CHUNK records); the others wait their turn. */
const MAX_LOG_RESUMES = 4;

const copyOffsets = (offsets: readonly (readonly number[])[]): number[][] => offsets.map((p) => [...p]);

/**
 * Cursors on this replica's events, and resumes from them (docs/adr: event cursors): the cursor parts the hub
 * writes on every frame, the check of a cursor given back (`complete`, `expired`, `invalid`), the replay of
 * what its user may see after it (WebSocket), and batches of the same over HTTP.
 */
export class EventCursors implements HubCursors {
  private nowHead: { serial: number; head: Buffer } | undefined;
  private readonly tails = new Map<string, Buffer>();
  /** Log records a batch read past its limit, by the position they start at (the cursor it answered). */
  private readonly leftovers = new Map<string, StreamRecord[]>();
  private leftoverRecords = 0;
  private readonly logTurns = new Turns(MAX_LOG_RESUMES);

  public constructor(
    private readonly codec: CursorCodec,
    public readonly stream: EventStream,
    private readonly deps: ReplayDeps,
    /** The log, for cursors older than what this replica holds (within the retention); none: those are expired. */
    private readonly log?: LogSource,
  ) {}

  public now(): Buffer {
    const serial = this.stream.nextSerial;
    if (this.nowHead?.serial !== serial) this.nowHead = { serial, head: Buffer.from(CURSOR_OPEN + this.codec.head(this.stream.position())) };
    return this.nowHead.head;
  }

  public tail(userId: string): Buffer {
    let tail = this.tails.get(userId);
    if (!tail) {
      tail = Buffer.from(`${this.codec.userTag(userId)}"`);
      if (this.tails.size >= 10_000) this.tails.clear();
      this.tails.set(userId, tail);
    }
    return tail;
  }

  /** Where the live event from `message` sits (the stream's position with that record handled); its delivery begins. */
  public originOf(message: BusMessage, time: number | undefined): EventOrigin | undefined {
    // Its delivery begins: snapshots include it until it is handled.
    const record = this.stream.delivering(message, time);
    return record ? new LiveOrigin(this.codec, this.stream, record) : undefined;
  }

  /** A cursor given back by `userId` (undefined = none; anything but one of ours for this user is invalid). */
  public check(cursor: unknown, userId: string): CheckedCursor {
    if (cursor === undefined || cursor === null) return { status: 'none' };
    if (!this.stream.started) return { status: 'invalid' };
    const decoded = this.codec.decode(cursor, userId);
    if (!decoded.ok) return { status: 'invalid' };
    const status = this.stream.coverage(decoded.position);
    if (status === 'complete' || (status === 'history' && this.log)) return { status: 'complete', position: decoded.position };
    return { status: status === 'history' ? 'expired' : status };
  }

  /** The cursor of the stream's position now, for `userId`. */
  public current(userId: string): string {
    return this.codec.encode(this.stream.position(), userId);
  }

  /**
   * Replays to a connection just authenticated (its hello written) every event after `from` that its user may
   * see, with their cursors, then the live events that came meanwhile. Call it in the same turn as the hello.
   */
  public async replay(conn: Connection, from: StreamPosition): Promise<void> {
    conn.hold();
    // In this turn: what the replica holds now (records being delivered included); live records after it are
    // held by the connection. Below the floor nothing is delivered live: the replay has it.
    const snapshot = this.stream.snapshot();
    conn.floor = highestOffsets(from.offsets, snapshot.position.offsets);
    let done = (): void => undefined;
    try {
      done = await this.logTurn(snapshot, from);
      const viewer: Viewer = { userId: conn.userId, isAdmin: conn.isAdmin, username: conn.username };
      const offsets = copyOffsets(from.offsets);
      const changes = await this.viewerChanges(viewer, snapshot, from);
      const skip = skipFilter(this.deps.membership, viewer, changes);
      for (let complete = false; !complete && conn.authenticated; ) {
        const round = await this.round(snapshot, { time: from.time, offsets }, { max: LOG_CHUNK, maxScanned: LOG_SCAN, skip });
        complete = round.complete;
        const records = round.records;
        for (let i = 0; i < records.length && conn.authenticated; i += STEP) {
          const step = records.slice(i, i + STEP);
          const events = await visibleEvents(this.deps, viewer, step, changes);
          let next = 0;
          for (const record of step) {
            advance(offsets, record);
            let head: Buffer | undefined;
            for (; next < events.length && events[next]?.record === record; next += 1) {
              head ??= Buffer.from(CURSOR_OPEN + this.codec.head({ time: record.time, offsets }));
              conn.write(eventPrefix((events[next] as { event: WsEvent }).event), false, head);
            }
          }
        }
      }
    } finally {
      done();
      conn.release();
    }
  }

  /**
   * Up to `limit` events after `from` that `viewer` may see (a record's events are never split), and the
   * cursor after the last record looked at: the stream's position when every kept record was looked at.
   */
  public async batch(viewer: Viewer, from: StreamPosition, limit: number): Promise<EventBatch> {
    const found = await this.batchFrom(viewer, from, limit);
    return { events: found.events, cursor: this.cursorAt(found.position, viewer.userId), ...(found.more ? { more: true } : {}) };
  }

  /**
   * `batch` with the position reached instead of its cursor. `since`: the stream's `nextSerial` when `from`
   * was reached (every record handled before it is at or before `from`): only the records handled since
   * are looked at (a long-poll looking again), not everything the replica holds.
   */
  public async batchFrom(viewer: Viewer, from: StreamPosition, limit: number, since?: number): Promise<PositionedBatch> {
    // Up to date (most polls): nothing to look at, the position is where it was (at or past every offset the
    // stream handled). Its offsets are `from`'s, not a copy: a waiting poll then holds one position, not two
    // (each ~1 KB with the embedded bus's partitions). Positions are never changed in place.
    if (this.stream.caughtUp(from)) return { events: [], position: { time: this.stream.timeNow(), offsets: from.offsets }, more: false };
    const snapshot = this.stream.snapshot(since);
    const done = await this.logTurn(snapshot, from);
    try {
      return await this.batchOf(snapshot, viewer, from, limit);
    } finally {
      done();
    }
  }

  /** The cursor of `position` for `userId`. */
  public cursorAt(position: StreamPosition, userId: string): string {
    return this.cursorOf(position, userId);
  }

  private async batchOf(snapshot: StreamSnapshot, viewer: Viewer, from: StreamPosition, limit: number): Promise<PositionedBatch> {
    const offsets = copyOffsets(from.offsets);
    const out: Record<string, unknown>[] = [];
    let time = from.time;
    const changes = await this.viewerChanges(viewer, snapshot, from);
    const skip = skipFilter(this.deps.membership, viewer, changes);
    let budget = BATCH_LOG_BUDGET;
    let scanBudget = BATCH_SCAN_BUDGET;
    for (let complete = false; !complete; ) {
      if (budget <= 0 || scanBudget <= 0) return { events: out, position: { time, offsets }, more: true };
      const round = await this.round(snapshot, { time, offsets }, { max: Math.min(LOG_CHUNK, budget), maxScanned: Math.min(LOG_SCAN, scanBudget), skip });
      complete = round.complete;
      const records = round.records;
      if (!complete) {
        budget -= records.length;
        scanBudget -= round.scanned;
      }
      for (let i = 0; i < records.length; i += STEP) {
        const step = records.slice(i, i + STEP);
        const events = await visibleEvents(this.deps, viewer, step, changes);
        let next = 0;
        for (const [k, record] of step.entries()) {
          const own: WsEvent[] = [];
          for (; next < events.length && events[next]?.record === record; next += 1) own.push((events[next] as { event: WsEvent }).event);
          if (own.length > 0 && out.length > 0 && out.length + own.length > limit) {
            // Read from the log (a round that reached the end too): the next batch from this cursor starts with them.
            if (!complete || round.scanned > 0) this.keepLeftover(offsets, records.slice(i + k));
            return { events: out, position: { time, offsets }, more: true };
          }
          advance(offsets, record);
          time = record.time;
          if (own.length === 0) continue;
          const cursor = this.cursorOf({ time, offsets }, viewer.userId);
          for (const event of own) out.push(frameObject(event, cursor));
        }
      }
    }
    // Everything held was looked at: the cursor is the snapshot's position (beyond the last record of this user).
    const position = snapshot.position;
    for (let t = 0; t < offsets.length; t += 1) {
      const mine = offsets[t] as number[];
      const now = position.offsets[t] ?? [];
      for (let p = 0; p < mine.length; p += 1) mine[p] = Math.max(mine[p] ?? 0, now[p] ?? 0);
    }
    return { events: out, position: { time: position.time, offsets }, more: false };
  }

  /** A turn to read the log (at most MAX_LOG_RESUMES at once); at once when `from` needs no log. Returns its release. */
  private logTurn(snapshot: StreamSnapshot, from: StreamPosition): Promise<() => void> {
    const needsLog = snapshot.covered.some((partitions, t) => partitions.some((covered, p) => (from.offsets[t]?.[p] ?? 0) < covered));
    return needsLog ? this.logTurns.take() : Promise.resolve(() => undefined);
  }

  /** One round of records after `from` (log first when needed); a round that makes no progress fails. */
  private async round(snapshot: StreamSnapshot, from: StreamPosition, options: RecordsAfterOptions): Promise<RecordsAfter> {
    // What the previous batch read past its limit: the log from exactly here (more may follow it).
    const key = offsetsKey(from.offsets);
    const kept = this.leftovers.get(key);
    if (kept) {
      this.leftovers.delete(key);
      this.leftoverRecords -= kept.length;
      return { records: kept, complete: false, scanned: 0 };
    }
    const round = await recordsAfter(this.stream, snapshot, this.log, from, options);
    if (!round.complete && round.records.length === 0) throw new Error('event log read made no progress');
    return round;
  }

  /**
   * The viewer's own joins and leaves from `from` to the snapshot (channel membership at the time of each
   * event): channels.events read from the log first when the replica no longer holds all of it.
   */
  private async viewerChanges(viewer: Viewer, snapshot: StreamSnapshot, from: StreamPosition): Promise<MembershipChanges> {
    const channels = this.stream.topics.indexOf(Topics.channelsEvents);
    const offsets = copyOffsets(from.offsets);
    const records: StreamRecord[] = [];
    let scanned = 0;
    for (let complete = false; !complete; ) {
      if (scanned > MAX_MEMBERSHIP_SCAN) throw new Error('too many membership changes to scan for an event cursor');
      const round = await recordsAfter(this.stream, snapshot, this.log, { time: from.time, offsets }, { max: LOG_CHUNK, topics: [channels] });
      if (!round.complete && round.records.length === 0) throw new Error('event log read made no progress');
      complete = round.complete;
      scanned += round.records.length;
      for (const record of round.records) advance(offsets, record);
      records.push(...membershipRecords(viewer, round.records));
    }
    return membershipChanges(viewer, records);
  }

  private keepLeftover(offsets: readonly (readonly number[])[], records: StreamRecord[]): void {
    if (records.length === 0 || records.length > MAX_LEFTOVER_RECORDS) return;
    for (const [key, old] of this.leftovers) {
      if (this.leftoverRecords + records.length <= MAX_LEFTOVER_RECORDS) break;
      this.leftovers.delete(key);
      this.leftoverRecords -= old.length;
    }
    this.leftovers.set(offsetsKey(offsets), records);
    this.leftoverRecords += records.length;
  }

  private cursorOf(position: StreamPosition, userId: string): string {
    return `${this.codec.head(position)}${this.tail(userId).toString('utf8', 0, this.tail(userId).length - 1)}`;
  }
}

/** The records among `records` that are the viewer's own joins or leaves (kept small across rounds). */
function membershipRecords(viewer: Viewer, records: readonly StreamRecord[]): StreamRecord[] {
  return records.filter((r) => (r.message.value as { payload?: { user_id?: unknown } } | null)?.payload?.user_id === viewer.userId);
}

const offsetsKey = (offsets: readonly (readonly number[])[]): string => offsets.map((p) => p.join(',')).join(';');

function advance(offsets: number[][], record: StreamRecord): void {
  const partitions = offsets[record.topic];
  if (partitions && record.partition < partitions.length) partitions[record.partition] = Math.max(partitions[record.partition] ?? 0, record.offset + 1);
}

/** The object of a WebSocket frame (`seq` is per socket: none here), with its cursor. */
function frameObject(event: WsEvent, cursor: string): Record<string, unknown> {
  const text = eventPrefix(event).toString('utf8');
  // The prefix is the frame's JSON up to `"seq": `: closed here without a seq.
  const parsed = JSON.parse(`${text.slice(0, text.lastIndexOf(', "seq": '))}}`) as Record<string, unknown>;
  return { ...parsed, cursor };
}

/** Per partition, the higher of two positions' offsets. */
function highestOffsets(a: readonly (readonly number[])[], b: readonly (readonly number[])[]): number[][] {
  return a.map((partitions, t) => partitions.map((offset, p) => Math.max(offset, b[t]?.[p] ?? 0)));
}

import type { MembershipCache } from '../membership-cache';
import type { StreamPosition } from './cursor';
import type { EventBatch, EventCursors, PositionedBatch } from './event-cursors';
import type { StreamRecord } from './event-stream';
import { postsChannel, type Viewer } from './replay';

/** Waits after the first record that may concern a poll before looking, so a burst is answered in one batch. */
const SETTLE_MS = 20;

/** What a poll whose client left resolves with (nobody to answer). */
export const LEFT: EventBatch = Object.freeze({ events: [], cursor: '' });

/** More polls would wait than `maxWaiting`: answered at once (503) instead. */
export class TooManyWaitingError extends Error {
  public constructor() {
    super('too many event long-polls waiting');
  }
}

export interface LongPollsOptions {
  /** Polls waiting at most at once. */
  readonly maxWaiting: number;
  readonly settleMs?: number;
}

/** One waiting poll: where it is (`position`, reached when the stream's next serial was `serial`). */
interface Waiter {
  readonly viewer: Viewer;
  readonly limit: number;
  position: StreamPosition;
  serial: number;
  /** A record since `serial` may concern it: it looks again (else every record since was not for it). */
  dirty: boolean;
  looking: boolean;
  /** Its wait is over: answered after the look in progress. */
  ending: boolean;
  /** Answered (or its client left): no longer waiting. */
  done: boolean;
  timer: NodeJS.Timeout | undefined;
  resolve(batch: EventBatch): void;
  reject(error: unknown): void;
}

/** A record just handled, and the stream's position then (past it), read once for the polls it wakes. */
class RecordAt {
  private now: StreamPosition | undefined;

  public constructor(
    private readonly cursors: EventCursors,
    public readonly record: StreamRecord,
  ) {}

  /** `position` moved up to just before the record: everything handled before it. */
  public before(position: StreamPosition): StreamPosition {
    this.now ??= this.cursors.stream.position();
    const { record } = this;
    const offsets = highest(position.offsets, this.now.offsets);
    const partitions = offsets[record.topic];
    if (partitions && record.partition < partitions.length) partitions[record.partition] = Math.max(position.offsets[record.topic]?.[record.partition] ?? 0, record.offset);
    return { time: position.time, offsets };
  }
}

/**
 * The long-polls of GET /api/v4/events waiting for their next events. Each record handled wakes only the
 * polls it may concern (a post: the waiting members of its channel, as the live socket's audience; typing:
 * none, it is not replayed; anything else: all), and a woken poll looks only at the records handled since it
 * last looked, not at everything the replica holds: a busy stream costs each poll the records that may be
 * its own, not waiters × records. A poll that no record concerned is answered at the end of its wait with
 * the stream's position (all it skipped was not its own) without looking at anything.
 */
export class LongPolls {
  private readonly byUser = new Map<string, Set<Waiter>>();
  private readonly toLook = new Set<Waiter>();
  private count = 0;
  private stopListening: (() => void) | undefined;
  private settle: NodeJS.Timeout | undefined;

  public constructor(
    private readonly cursors: EventCursors,
    private readonly membership: MembershipCache,
    private readonly options: LongPollsOptions,
  ) {}

  /** Polls waiting now. */
  public get waiting(): number {
    return this.count;
  }

  /**
   * The batch after `from` for `viewer`: at once when it has events (or more is left) or `waitMs` is 0,
   * else once events come, or with none after `waitMs`, or when `onLeave`'s callback is called (the client
   * left). Throws TooManyWaitingError when it would wait beyond `maxWaiting`.
   */
  public poll(viewer: Viewer, from: StreamPosition, limit: number, waitMs: number, onLeave?: (left: () => void) => void): Promise<EventBatch> {
    const serial = this.cursors.stream.nextSerial;
    // Chained, not an async function: a waiting poll keeps no suspended frame of its own (memory per poll).
    return this.cursors.batchFrom(viewer, from, limit).then((first) => {
      if (first.events.length > 0 || first.more || waitMs <= 0) return this.answer(viewer, first);
      if (this.count >= this.options.maxWaiting) throw new TooManyWaitingError();
      return this.wait(viewer, first.position, limit, serial, waitMs, onLeave);
    });
  }

  private wait(viewer: Viewer, position: StreamPosition, limit: number, serial: number, waitMs: number, onLeave?: (left: () => void) => void): Promise<EventBatch> {
    return new Promise<EventBatch>((resolve, reject) => {
      const waiter: Waiter = { viewer, limit, position, serial, dirty: false, looking: false, ending: false, done: false, timer: undefined, resolve, reject };
      this.add(waiter);
      waiter.timer = setTimeout(() => this.end(waiter), waitMs);
      onLeave?.(() => this.leave(waiter));
      // Records handled while the first batch was made: looked at soon.
      if (this.cursors.stream.nextSerial > serial) this.mark(waiter);
    });
  }

  private answer(viewer: Viewer, batch: PositionedBatch): EventBatch {
    return { events: batch.events, cursor: this.cursors.cursorAt(batch.position, viewer.userId), ...(batch.more ? { more: true } : {}) };
  }

  private add(waiter: Waiter): void {
    let set = this.byUser.get(waiter.viewer.userId);
    if (!set) {
      set = new Set();
      this.byUser.set(waiter.viewer.userId, set);
    }
    set.add(waiter);
    this.count += 1;
    this.stopListening ??= this.cursors.stream.onRecord((record) => this.recorded(record));
  }

  private remove(waiter: Waiter): void {
    waiter.done = true;
    clearTimeout(waiter.timer);
    this.toLook.delete(waiter);
    const set = this.byUser.get(waiter.viewer.userId);
    if (!set?.delete(waiter)) return;
    if (set.size === 0) this.byUser.delete(waiter.viewer.userId);
    this.count -= 1;
    if (this.count === 0) {
      this.stopListening?.();
      this.stopListening = undefined;
      clearTimeout(this.settle);
      this.settle = undefined;
    }
  }

  /** Which waiting polls a record may concern (decided as the live socket's audience, from cached members only). */
  private recorded(record: StreamRecord): void {
    if (record.typing) return;
    const channelId = postsChannel(record);
    // A set read before the post happened may lack a join made just before it (as hub.audience's `at`): all look.
    const members = channelId === undefined ? undefined : this.membership.knownMembers(channelId, record.time);
    const at = new RecordAt(this.cursors, record);
    if (!members) {
      for (const set of this.byUser.values()) for (const waiter of set) this.mark(waiter, at);
      return;
    }
    if (members.size < this.byUser.size) {
      for (const userId of members) for (const waiter of this.byUser.get(userId) ?? []) this.mark(waiter, at);
    } else {
      for (const [userId, set] of this.byUser) if (members.has(userId)) for (const waiter of set) this.mark(waiter, at);
    }
  }

  /**
   * The poll looks again soon. From `record` on (when given): every record it skipped before was not its own,
   * so its position moves to just before it and its next look starts there.
   */
  private mark(waiter: Waiter, at?: RecordAt): void {
    if (waiter.dirty || waiter.done) return;
    waiter.dirty = true;
    if (waiter.looking) return;
    if (at) {
      waiter.position = at.before(waiter.position);
      waiter.serial = at.record.serial;
    }
    this.toLook.add(waiter);
    this.settle ??= setTimeout(() => this.lookAll(), this.options.settleMs ?? SETTLE_MS);
  }

  private lookAll(): void {
    this.settle = undefined;
    const waiters = [...this.toLook];
    this.toLook.clear();
    for (const waiter of waiters) void this.look(waiter);
  }

  private async look(waiter: Waiter): Promise<void> {
    waiter.looking = true;
    waiter.dirty = false;
    try {
      const serial = this.cursors.stream.nextSerial;
      const batch = await this.cursors.batchFrom(waiter.viewer, waiter.position, waiter.limit, waiter.serial);
      if (waiter.done) return;
      waiter.position = batch.position;
      waiter.serial = serial;
      waiter.looking = false;
      if (batch.events.length > 0 || batch.more || waiter.ending) this.finish(waiter, batch);
      else if (waiter.dirty) {
        waiter.dirty = false;
        this.mark(waiter);
      }
    } catch (error) {
      waiter.looking = false;
      this.remove(waiter);
      waiter.reject(error);
    }
  }

  /** The wait is over: a poll no record concerned is past everything handled; one that may have events looks first. */
  private end(waiter: Waiter): void {
    waiter.ending = true;
    if (waiter.looking) return;
    if (waiter.dirty) {
      this.toLook.delete(waiter);
      void this.look(waiter);
      return;
    }
    const now = this.cursors.stream.position();
    this.finish(waiter, { events: [], position: { time: now.time, offsets: highest(waiter.position.offsets, now.offsets) }, more: false });
  }

  /** The client left: nothing is answered (the poll resolves with LEFT), the poll stops waiting. */
  private leave(waiter: Waiter): void {
    this.remove(waiter);
    waiter.resolve(LEFT);
  }

  private finish(waiter: Waiter, batch: PositionedBatch): void {
    this.remove(waiter);
    waiter.resolve(this.answer(waiter.viewer, batch));
  }
}

function highest(a: readonly (readonly number[])[], b: readonly (readonly number[])[]): number[][] {
  return a.map((partitions, t) => partitions.map((offset, p) => Math.max(offset, b[t]?.[p] ?? 0)));
}

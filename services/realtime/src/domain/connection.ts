import type { EventPrefix } from './ws-event';

/** How a slow consumer's socket is closed (1013 "try again later"; it may reconnect, or resume from its cursor). */
export const SLOW_CONSUMER = { code: 1013, reason: 'slow consumer: send queue full' } as const;

/** The transport under one connection (a `ws` socket in production, a recorder in unit tests). */
export interface SocketPort {
  /**
   * Sends one event: the shared `prefix` completed by `<seq>`, the cursor when given (`head`, shared by the
   * event's receivers, and `tail`, the connection's) and `}` (the port frames it without re-encoding).
   */
  sendEvent(prefix: EventPrefix, seq: number, head?: Buffer, tail?: Buffer): void;
  /** Sends one text frame (a reply). */
  send(text: string): void;
  /** Frames sent and not yet handed to the kernel (waiting or being written): the send queue. */
  readonly backlog: number;
  close(code?: number, reason?: string): void;
  /** Drops the TCP connection without a close handshake. */
  terminate(): void;
}

/**
 * A logged event with a cursor: its prefix and cursor head in one object, made once per event and shared by
 * the logs of its receivers, so logging it is one store per receiver (a store of a new object into a log that
 * has grown old costs the garbage collector's write barrier; two per receiver measured ~40 % of what the
 * cursor adds to the delivery loop). Events without a cursor are logged as their prefix alone.
 */
interface LoggedEvent {
  readonly prefix: EventPrefix;
  readonly head: Buffer;
}

/** The last LoggedEvent made: a hub delivers one event to all its receivers in a row, so they share it. */
let lastLogged: LoggedEvent | undefined;

function loggedEvent(prefix: EventPrefix, head: Buffer): LoggedEvent {
  if (lastLogged?.prefix !== prefix || lastLogged.head !== head) lastLogged = { prefix, head };
  return lastLogged;
}

/** Who a connection belongs to, once authenticated. */
export interface ConnectionSession {
  readonly userId: string;
  readonly sessionId: string;
  readonly tokenId?: string;
  readonly roles: string;
  readonly isBot: boolean;
  /** ms; 0 = never. */
  readonly expiresAt: number;
}

export interface ConnectionLimits {
  /** Frames written but not yet flushed before the socket is cut off (the reference's 256-slot queue). */
  readonly sendQueue: number;
  /** Sent events kept for replay after a reconnect (the reference's dead queue of 128). */
  readonly replayBuffer: number;
}

/**
 * One WebSocket connection as the reference's WebConn: an id, a per-connection `seq` (0 for hello, +1 per
 * event written, no gaps), the last sent events for replay, and a bounded send queue. After the socket
 * goes away the connection is kept for a while (away): events keep being numbered and logged (at most
 * `sendQueue` of them) so that a reconnect with the same id and a sequence number still in the log gets
 * exactly what it missed.
 *
 * The log is a ring of the shared event prefixes indexed by `seq % capacity` (every seq is logged exactly
 * once, in order), so writing an event allocates nothing but the frame itself.
 */
export class Connection {
  public username = '';
  public socket: SocketPort | undefined;
  /** ms of the last activity (connect, frame, pong); the reaper drops away connections by it. */
  public lastActivity: number;
  /** The socket was cut off because its send queue filled. */
  public overflowed = false;
  /** This user's part of every cursor (`<user tag>"`); undefined: frames carry no cursor. */
  public cursorTail: Buffer | undefined;
  /**
   * After a resume: per topic and partition, the first offset this connection may still get (its cursor's);
   * a live event from an earlier record (this replica was behind the cursor's) is not sent again.
   */
  public floor: readonly (readonly number[])[] | undefined;
  /** While a resume replays: live events wait here (bounded), then go out after the replayed ones. */
  private held: { prefix: EventPrefix; droppable: boolean; head: Buffer | undefined }[] | undefined;
  private current: ConnectionSession | undefined;
  private admin = false;
  private nextSeq = 0;
  private awayCount = 0;
  /** Logged events (their prefix, with their cursor head when they have one): seq s is at ring[s % capacity]; the last `logged` seqs are replayable. */
  private readonly ring: (EventPrefix | LoggedEvent)[] = [];
  private readonly capacity: number;
  private logged = 0;

  public constructor(
    public readonly id: string,
    private readonly limits: ConnectionLimits,
    now: number,
  ) {
    this.lastActivity = now;
    this.capacity = Math.max(1, limits.replayBuffer + limits.sendQueue);
  }

  public get session(): ConnectionSession | undefined {
    return this.current;
  }

  public set session(session: ConnectionSession | undefined) {
    this.current = session;
    this.admin = (session?.roles ?? '').split(' ').includes('system_admin');
  }

  public get userId(): string {
    return this.current?.userId ?? '';
  }

  public get authenticated(): boolean {
    return this.current !== undefined;
  }

  public get isAdmin(): boolean {
    return this.admin;
  }

  public get connected(): boolean {
    return this.socket !== undefined;
  }

  /** Frames in flight on the socket. */
  public get queued(): number {
    return this.socket?.backlog ?? 0;
  }

  /** The seq the next event will get. */
  public get sequence(): number {
    return this.nextSeq;
  }

  /** Away and past its queue: the reference drops such a connection; a reconnect gets a fresh hello. */
  public get lost(): boolean {
    return this.socket === undefined && this.awayCount > this.limits.sendQueue;
  }

  /**
   * Numbers the event for this connection and sends it (or logs it while away). A full send queue cuts
   * the socket off. Returns false when the event was dropped (droppable and the queue half full).
   */
  public write(prefix: EventPrefix, droppable = false, head?: Buffer): boolean {
    if (this.held) {
      if (this.held.length >= this.limits.sendQueue * 4) {
        // The replay takes too long for what keeps coming: cut off as a slow consumer (it may resume again).
        this.held = undefined;
        this.overflowed = true;
        const socket = this.socket;
        this.detach();
        socket?.close(SLOW_CONSUMER.code, SLOW_CONSUMER.reason);
        return true;
      }
      this.held.push({ prefix, droppable, head });
      return true;
    }
    if (droppable && this.queued >= this.limits.sendQueue / 2) return false;
    const seq = this.nextSeq;
    this.nextSeq += 1;
    this.log(seq, prefix, head);
    const socket = this.socket;
    if (!socket) {
      this.awayCount += 1;
      return true;
    }
    if (socket.backlog >= this.limits.sendQueue) {
      this.overflowed = true;
      this.detach();
      // What is queued (at most the send queue) goes out first, then the close frame with its reason; the
      // WebSocket library ends the socket if the close handshake does not complete (bounded either way).
      socket.close(SLOW_CONSUMER.code, SLOW_CONSUMER.reason);
      this.awayCount += 1;
      return true;
    }
    socket.sendEvent(prefix, seq, head, this.cursorTail);
    return true;
  }

  /** A resume begins: live events wait until `release`. */
  public hold(): void {
    this.held ??= [];
  }

  /** The replay is written: the live events that waited go out, in order. */
  public release(): void {
    const held = this.held;
    this.held = undefined;
    for (const event of held ?? []) this.write(event.prefix, event.droppable, event.head);
  }

  /** A reply frame (`seq_reply`): not numbered, not logged. */
  public reply(text: string): void {
    if (!this.socket) return;
    this.socket.send(text);
  }

  public attach(socket: SocketPort, now: number): void {
    this.socket = socket;
    this.overflowed = false;
    this.lastActivity = now;
  }

  /** The socket is gone; the connection stays (away) for a reconnect. */
  public detach(): void {
    this.socket = undefined;
    this.awayCount = 0;
    this.logged = Math.min(this.logged, this.limits.replayBuffer);
  }

  /**
   * Whether a reconnect asking for `sequence` can go on losslessly: `sequence` is in the log or is the
   * next seq. When it can, the missed events are sent (same seq numbers) and true is returned.
   */
  public resume(sequence: number): boolean {
    const first = this.nextSeq - this.logged;
    if (!Number.isInteger(sequence) || sequence < first || sequence > this.nextSeq || this.lost || !this.socket) return false;
    const socket = this.socket;
    for (let seq = sequence; seq < this.nextSeq; seq += 1) {
      const entry = this.ring[seq % this.capacity];
      if (!entry) continue;
      if (Buffer.isBuffer(entry)) socket.sendEvent(entry, seq, undefined, this.cursorTail);
      else socket.sendEvent(entry.prefix, seq, entry.head, this.cursorTail);
    }
    this.awayCount = 0;
    this.logged = Math.min(this.logged, this.limits.replayBuffer);
    return true;
  }

  private log(seq: number, prefix: EventPrefix, head: Buffer | undefined): void {
    const slot = seq % this.capacity;
    const entry = head ? loggedEvent(prefix, head) : prefix;
    if (slot === this.ring.length) this.ring.push(entry);
    else this.ring[slot] = entry;
    const max = this.socket ? this.limits.replayBuffer : this.capacity;
    this.logged = Math.min(this.logged + 1, max);
  }
}

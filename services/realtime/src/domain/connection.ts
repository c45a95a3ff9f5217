import type { EventPrefix } from './ws-event';

/** The transport under one connection (a `ws` socket in production, a recorder in unit tests). */
export interface SocketPort {
  /** Sends one event: the shared `prefix` completed by `<seq>}` (the port frames it without re-encoding). */
  sendEvent(prefix: EventPrefix, seq: number): void;
  /** Sends one text frame (a reply). */
  send(text: string): void;
  /** Frames sent and not yet handed to the kernel (waiting or being written): the send queue. */
  readonly backlog: number;
  close(code?: number, reason?: string): void;
  /** Drops the TCP connection without a close handshake. */
  terminate(): void;
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
  private current: ConnectionSession | undefined;
  private admin = false;
  private nextSeq = 0;
  private awayCount = 0;
  /** Logged prefixes: seq s is at ring[s % capacity]; the last `logged` seqs are replayable. */
  private readonly ring: EventPrefix[] = [];
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
  public write(prefix: EventPrefix, droppable = false): boolean {
    if (droppable && this.queued >= this.limits.sendQueue / 2) return false;
    const seq = this.nextSeq;
    this.nextSeq += 1;
    this.log(seq, prefix);
    const socket = this.socket;
    if (!socket) {
      this.awayCount += 1;
      return true;
    }
    if (socket.backlog >= this.limits.sendQueue) {
      this.overflowed = true;
      this.detach();
      socket.terminate();
      this.awayCount += 1;
      return true;
    }
    socket.sendEvent(prefix, seq);
    return true;
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
      const prefix = this.ring[seq % this.capacity];
      if (prefix) socket.sendEvent(prefix, seq);
    }
    this.awayCount = 0;
    this.logged = Math.min(this.logged, this.limits.replayBuffer);
    return true;
  }

  private log(seq: number, prefix: EventPrefix): void {
    const slot = seq % this.capacity;
    if (slot === this.ring.length) this.ring.push(prefix);
    else this.ring[slot] = prefix;
    const max = this.socket ? this.limits.replayBuffer : this.capacity;
    this.logged = Math.min(this.logged + 1, max);
  }
}

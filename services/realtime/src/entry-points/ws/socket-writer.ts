import { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { SocketPort } from '../../domain/connection';
import { eventFrameLength, textFrame, writeEventFrame } from './frame';

/** What the WebSocket library does for an outbox: whether data may still go out, closing, dropping. */
export interface SocketControl {
  /** Whether data frames may still go out (no close frame sent yet). */
  open(): boolean;
  /** Sends a close frame (after the frames waiting, which are flushed first). */
  close(code?: number, reason?: string): void;
  /** Drops the TCP connection (the frames waiting are discarded). */
  terminate(): void;
}

/**
 * One socket's port: frames waiting for the next flush, events as (shared prefix, seq) pairs built straight
 * into the output buffer at the flush, replies as whole frames (seq -1). `backlog` counts the frames waiting
 * and those whose write has not completed (the kernel has not taken them): the connection's send queue.
 */
export class SocketOutbox implements SocketPort {
  private readonly parts: Buffer[] = [];
  private readonly seqs: number[] = [];
  /** Each event's cursor parts (undefined: none). */
  private readonly heads: (Buffer | undefined)[] = [];
  private readonly tails: (Buffer | undefined)[] = [];
  private bytes = 0;
  private writing = 0;
  private waiting = false;

  public constructor(
    private readonly writer: SocketWriter,
    private readonly socket: Duplex,
    private readonly control: SocketControl,
  ) {}

  public get backlog(): number {
    return this.parts.length + this.writing;
  }

  /** Queues an event: `prefix` (the JSON up to the seq value) completed by `<seq>`, its cursor (`head`, `tail`) and `}`. */
  public sendEvent(prefix: Buffer, seq: number, head?: Buffer, tail?: Buffer): void {
    this.parts.push(prefix);
    this.seqs.push(seq);
    this.heads.push(head);
    this.tails.push(tail);
    this.bytes += eventFrameLength(prefix, seq, head, tail);
    this.queued();
  }

  /** Queues a reply. */
  public send(text: string): void {
    this.frame(textFrame(text));
  }

  /** Queues a whole frame. */
  public frame(frame: Buffer): void {
    this.parts.push(frame);
    this.seqs.push(-1);
    this.heads.push(undefined);
    this.tails.push(undefined);
    this.bytes += frame.length;
    this.queued();
  }

  /** Writes what waits now (before a close frame goes after it). */
  public flush(): void {
    const count = this.parts.length;
    if (count === 0) return;
    if (this.socket.destroyed || !this.socket.writable || !this.control.open()) {
      this.clear();
      return;
    }
    let data: Buffer;
    // A TCP socket's write that completes at once has copied the bytes into the kernel: its buffer can be
    // the writer's shared one. A socket with writes pending (a slow reader) will keep this one too, and other
    // streams (tests, wrappers) may keep the chunk: they get their own.
    const shared = this.socket instanceof Socket && this.socket.writableLength === 0;
    if (count === 1 && this.seqs[0] === -1) {
      data = this.parts[0] as Buffer;
    } else {
      data = shared ? this.writer.scratch(this.bytes) : Buffer.allocUnsafe(this.bytes);
      let at = 0;
      for (let i = 0; i < count; i += 1) {
        const part = this.parts[i] as Buffer;
        const seq = this.seqs[i] as number;
        if (seq < 0) at += part.copy(data, at);
        else at = writeEventFrame(data, at, part, seq, this.heads[i], this.tails[i]);
      }
    }
    this.clear();
    this.writing += count;
    this.socket.write(data, () => {
      this.writing -= count;
    });
    // Not all taken at once (kernel buffer full, still connecting): the pending write keeps the shared buffer.
    if (shared && this.socket.writableLength > 0) this.writer.release(data);
  }

  /** Drops what waits (the socket is gone). */
  public discard(): void {
    this.clear();
  }

  public close(code?: number, reason?: string): void {
    this.flush();
    this.control.close(code, reason);
  }

  public terminate(): void {
    this.discard();
    this.control.terminate();
  }

  private queued(): void {
    if (this.waiting) return;
    this.waiting = true;
    this.writer.schedule(this);
  }

  private clear(): void {
    this.parts.length = 0;
    this.seqs.length = 0;
    this.heads.length = 0;
    this.tails.length = 0;
    this.bytes = 0;
    this.waiting = false;
  }
}

/** Size of the writer's shared buffer: a socket's frames of one flush up to this size are built in it. */
const ARENA_BYTES = 64 * 1024;

/**
 * Writes pre-built WebSocket frames to raw TCP sockets, coalesced: what a socket gets during one turn of
 * the event loop (a Kafka batch, a reconnect replay), or within `coalesceMs` of the previous flush, goes out
 * as one buffer in one write. With `coalesceMs` 0 a flush runs after the current I/O phase (setImmediate);
 * above 0, flushes are at least that far apart while events keep coming, so a steady stream costs one
 * system call per socket per interval instead of one per event, at the price of up to `coalesceMs` of
 * latency; the first flush after a quiet interval still runs in the same turn.
 */
export class SocketWriter {
  private dirty: SocketOutbox[] = [];
  /** Memory the flushes build their frames in, reused from one socket's write to the next. */
  private arena: Buffer | undefined;
  private scheduled = false;
  private lastFlush = Number.NEGATIVE_INFINITY;

  public constructor(
    private readonly coalesceMs = 0,
    private readonly now: () => number = () => performance.now(),
  ) {}

  public outbox(socket: Duplex, control: SocketControl): SocketOutbox {
    return new SocketOutbox(this, socket, control);
  }

  /** Sockets with frames waiting. */
  public get holding(): number {
    return this.dirty.length;
  }

  /**
   * `bytes` of the shared buffer for one write (allocated once, not per socket and flush: 100,000 frames a
   * second in fresh buffers kept the garbage collector busy). Larger writes than ARENA_BYTES get their own.
   */
  public scratch(bytes: number): Buffer {
    if (bytes > ARENA_BYTES) return Buffer.allocUnsafe(bytes);
    this.arena ??= Buffer.allocUnsafeSlow(ARENA_BYTES);
    return this.arena.subarray(0, bytes);
  }

  /** A write still holds `data` (from `scratch`): the next flush gets new memory. */
  public release(data: Buffer): void {
    if (this.arena !== undefined && data.buffer === this.arena.buffer) this.arena = undefined;
  }

  /** Called by an outbox when its first frame waits. */
  public schedule(outbox: SocketOutbox): void {
    this.dirty.push(outbox);
    if (this.scheduled) return;
    this.scheduled = true;
    const wait = this.lastFlush + this.coalesceMs - this.now();
    if (wait <= 0) setImmediate(this.flush);
    else setTimeout(this.flush, Math.ceil(wait));
  }

  /** Writes every socket's waiting frames now (also run at shutdown). */
  public readonly flush = (): void => {
    this.scheduled = false;
    this.lastFlush = this.now();
    const dirty = this.dirty;
    this.dirty = [];
    for (const outbox of dirty) outbox.flush();
  };
}

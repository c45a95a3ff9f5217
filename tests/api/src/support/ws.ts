import WebSocket from 'ws';
import { WAIT_MS } from './eventually';

export type Frame = Record<string, unknown> & { event?: string; seq?: number; seq_reply?: number; status?: string; data?: Record<string, unknown>; broadcast?: Record<string, unknown> };

export interface OpenOptions {
  /** Sent as `Authorization: Bearer <token>`. */
  readonly token?: string;
  /** Sent as the MMAUTHTOKEN cookie. */
  readonly cookie?: string;
  readonly origin?: string;
  /** Appended to the URL, e.g. `connection_id=…&sequence_number=…`. */
  readonly query?: string;
}

export function websocketUrl(baseUrl: string, query = ''): string {
  return `${baseUrl.replace(/^http/, 'ws')}/api/v4/websocket${query === '' ? '' : `?${query}`}`;
}

/**
 * A raw WebSocket to `/api/v4/websocket` that records every frame: `next()` waits for the first frame not
 * yet taken that matches, so tests wait for events instead of sleeping.
 */
export class TestSocket {
  public readonly frames: Frame[] = [];
  public readonly closed: Promise<{ code: number; reason: string }>;
  private readonly taken = new Set<Frame>();
  private waiters: { match: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  private seq = 0;

  private constructor(public readonly ws: WebSocket) {
    ws.on('message', (data: WebSocket.RawData) => {
      const frame = JSON.parse(String(data)) as Frame;
      this.frames.push(frame);
      for (const waiter of [...this.waiters]) {
        if (!this.taken.has(frame) && waiter.match(frame)) {
          this.taken.add(frame);
          this.waiters = this.waiters.filter((w) => w !== waiter);
          waiter.resolve(frame);
        }
      }
    });
    this.closed = new Promise((resolve) => ws.once('close', (code: number, reason: Buffer) => resolve({ code, reason: reason.toString() })));
  }

  public static open(baseUrl: string, options: OpenOptions = {}): Promise<TestSocket> {
    const headers: Record<string, string> = {};
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    if (options.cookie !== undefined) headers.cookie = `MMAUTHTOKEN=${options.cookie}`;
    if (options.origin !== undefined) headers.origin = options.origin;
    const ws = new WebSocket(websocketUrl(baseUrl, options.query), { headers });
    const socket = new TestSocket(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(socket));
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    });
  }

  /** The next frame (not yet taken) that matches; rejects after `timeoutMs`. */
  public next(match: (f: Frame) => boolean, timeoutMs = WAIT_MS, what = 'frame'): Promise<Frame> {
    const ready = this.frames.find((f) => !this.taken.has(f) && match(f));
    if (ready) {
      this.taken.add(ready);
      return Promise.resolve(ready);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.match !== match);
        reject(new Error(`no ${what} within ${timeoutMs} ms; got ${JSON.stringify(this.frames.map((f) => f.event ?? `reply ${String(f.seq_reply)}`))}`));
      }, timeoutMs);
      this.waiters.push({
        match,
        resolve: (f) => {
          clearTimeout(timer);
          resolve(f);
        },
      });
    });
  }

  public event(name: string, match: (f: Frame) => boolean = () => true, timeoutMs?: number): Promise<Frame> {
    return this.next((f) => f.event === name && match(f), timeoutMs, `${name} event`);
  }

  /** Sends `{seq, action, data}` and returns its seq. */
  public send(action: string, data?: Record<string, unknown>): number {
    this.seq += 1;
    this.ws.send(JSON.stringify({ seq: this.seq, action, ...(data === undefined ? {} : { data }) }));
    return this.seq;
  }

  /** Sends an action and waits for its reply. */
  public request(action: string, data?: Record<string, unknown>, timeoutMs?: number): Promise<Frame> {
    const seq = this.send(action, data);
    return this.next((f) => f.seq_reply === seq, timeoutMs, `reply to ${action}`);
  }

  /** Every event frame received so far, in order. */
  public events(): Frame[] {
    return this.frames.filter((f) => typeof f.event === 'string');
  }

  public close(): void {
    this.ws.close();
  }
}

/** The JSON-string field of an event's data, parsed. */
export function parsed<T = Record<string, unknown>>(frame: Frame, field: string): T {
  const value = frame.data?.[field];
  if (typeof value !== 'string') throw new Error(`${field} is not a JSON string: ${JSON.stringify(value)}`);
  return JSON.parse(value) as T;
}

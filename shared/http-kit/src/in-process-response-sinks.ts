import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

export interface DispatchResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** The body, collected; empty when `stream` is given. */
  readonly body: Buffer;
  /** The body as the app writes it (asked with `streamResponse`): read it to the end or destroy it. */
  readonly stream?: Readable;
}

/** Where an in-process response's head and body go: collected whole, or handed on as a stream. */
export interface ResponseSink {
  /** False for HEAD, 204, 304 and 1xx: writes are dropped. */
  hasBody: boolean;
  /** The status and headers are final (first write, or end). */
  head(res: ServerResponse): void;
  /** A body chunk; false when the reader is behind (the app waits for 'drain'). */
  chunk(data: Buffer): boolean;
  finish(res: ServerResponse): void;
  /** The response was destroyed (before or after its head). */
  fail(error: Error): void;
}

export const EMPTY = Buffer.alloc(0);

let cachedDate = '';
let cachedDateSecond = -1;
function httpDate(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== cachedDateSecond) {
    cachedDateSecond = second;
    cachedDate = new Date(now).toUTCString();
  }
  return cachedDate;
}

/** Everything the app set, lower-cased, as strings, plus `date`. */
function headersOf(res: ServerResponse): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  const set = res.getHeaders();
  for (const name in set) {
    const value = set[name];
    if (value === undefined) continue;
    headers[name] = Array.isArray(value) ? value.map(String) : String(value);
  }
  if (headers.date === undefined && res.sendDate) headers.date = httpDate();
  return headers;
}

/**
 * The whole body in memory, answered at the end. One object (not four closures over shared state): an
 * in-process long-poll keeps its sink while it waits, thousands at once.
 */
class BufferedSink implements ResponseSink {
  public hasBody = true;
  private chunks: Buffer[] | undefined;
  private settled = false;

  public constructor(
    private readonly resolve: (response: DispatchResponse) => void,
    private readonly reject: (error: Error) => void,
  ) {}

  public head(): void {}

  public chunk(data: Buffer): boolean {
    (this.chunks ??= []).push(data);
    return true;
  }

  public finish(res: ServerResponse): void {
    const chunks = this.chunks;
    const body = chunks === undefined || chunks.length === 0 ? EMPTY : chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
    this.settled = true;
    this.resolve({ status: res.statusCode, headers: headersOf(res), body });
  }

  public fail(error: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.reject(error);
  }
}

export function bufferedSink(resolve: (response: DispatchResponse) => void, reject: (error: Error) => void): ResponseSink {
  return new BufferedSink(resolve, reject);
}

/**
 * Answered as soon as the head is final, the body following as a stream: a chunk the reader has not taken
 * makes the app's write return false, and the reader asking for more is the app's 'drain'. A reader that
 * destroys the stream before its end destroys the response (the app's pipe stops, its source is closed).
 */
export function streamedSink(resolve: (response: DispatchResponse) => void, reject: (error: Error) => void): ResponseSink {
  let response: ServerResponse | undefined;
  let waiting = false;
  let ended = false;
  const stream = new Readable({
    highWaterMark: 64 * 1024,
    read() {
      if (!waiting) return;
      waiting = false;
      response?.emit('drain');
    },
  });
  stream.once('close', () => {
    if (!ended) response?.destroy();
  });
  // Its readers hear a failure through their own listeners (pipeline, for await); one that let go must not crash the process.
  stream.on('error', () => undefined);
  return {
    hasBody: true,
    head(res) {
      if (response) return;
      response = res;
      resolve({ status: res.statusCode, headers: headersOf(res), body: EMPTY, stream });
    },
    chunk(data) {
      // A reader gone: the app is held (as by a full buffer) until the destroyed response's 'close' stops it.
      if (stream.destroyed) return false;
      const more = stream.push(data);
      if (!more) waiting = true;
      return more;
    },
    finish() {
      ended = true;
      stream.push(null);
    },
    fail(error) {
      if (ended) return;
      ended = true;
      if (!response) reject(error);
      // The reader sees the body cut short (a source that failed midway), never a clean end.
      else if (!stream.destroyed) stream.destroy(error);
    },
  };
}

import { IncomingMessage, ServerResponse, type IncomingHttpHeaders, type OutgoingHttpHeaders, type RequestListener } from 'node:http';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { streamInto } from './in-process-stream-body';
import { newLocals } from './response-locals';
import type { LeaveSignal } from './transport';
import { requestPrototypes, serverClasses } from './own-prototypes';
import { bufferedSink, EMPTY, streamedSink, type DispatchResponse, type ResponseSink } from './in-process-response-sinks';

export type { DispatchResponse } from './in-process-response-sinks';

/**
 * A request handed to an express app in this process without a socket: a real IncomingMessage and
 * ServerResponse whose writes are collected in memory. It replaces light-my-request's `inject` (a fake
 * HTTP round trip per hop, with prototype re-parenting and stream plumbing) on the embedded runtime's hot
 * path, and keeps what a service saw through it: the same header folding, default
 * `user-agent`/`host`, `content-length` of the body, remote address 127.0.0.1, and the same response
 * headers (everything the app set, lower-cased, as strings, plus `date`).
 */

export interface DispatchRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Bytes, or a stream the app reads as it goes (its backpressure reaches the source). */
  readonly body?: Buffer | Readable;
  /** A streamed body's length when known; without it the request says `transfer-encoding: chunked`. */
  readonly bodyLength?: number;
  /** Answer with `stream` (the body as the app writes it, its backpressure reaching the app) instead of `body`. */
  readonly streamResponse?: boolean;
  /** Aborted when the caller's client left: the response is destroyed (the app sees it close) and the call fails. */
  readonly signal?: LeaveSignal;
}


/**
 * The body of an in-process request, available at once: http-kit's rawBody takes it from here (still
 * applying its size limit) instead of reading the stream, which is filled only if something reads it.
 */
export const IN_PROCESS_BODY = Symbol.for('switchyard.http-kit.in-process-body');

type InProcessRequest = IncomingMessage & { [IN_PROCESS_BODY]?: Buffer };

/** What node's own HTTP client refuses in a request target (ERR_UNESCAPED_CHARACTERS): space, controls, beyond latin1. */
const INVALID_TARGET = /[^\u0021-\u00ff]/;

/**
 * The request target exactly as given: the transport never resolves dot segments, decodes escapes or
 * drops anything, so a service sees the very path its caller decided on (a gateway that routed
 * `/api/v4/x/%2e%2e/...` must not have it become another path on the way). A target that is not a path,
 * or that no HTTP client could send, is refused instead of being repaired.
 */
export function checkTarget(path: string): string {
  if (!path.startsWith('/') || INVALID_TARGET.test(path)) {
    throw Object.assign(new TypeError('in-process request target must be a path of visible characters'), { code: 'ERR_INVALID_TARGET' });
  }
  return path;
}

/** Header names whose duplicates node's HTTP parser discards (keeping the first). */
const SINGLE_VALUE_HEADERS = new Set([
  'age', 'authorization', 'content-length', 'content-type', 'etag', 'expires', 'from', 'host', 'if-modified-since',
  'if-unmodified-since', 'last-modified', 'location', 'max-forwards', 'proxy-authorization', 'referer', 'retry-after', 'server', 'user-agent',
]);

function joinHeaderValues(name: string, values: readonly string[]): string | string[] {
  if (name === 'set-cookie') return values.slice();
  if (SINGLE_VALUE_HEADERS.has(name)) return values[0] ?? '';
  return values.join(name === 'cookie' ? '; ' : ', ');
}

const fakeSocket = {
  remoteAddress: '127.0.0.1',
  remotePort: 0,
  readable: false,
  writable: false,
  destroyed: false,
  encrypted: false,
  on: () => fakeSocket,
  once: () => fakeSocket,
  removeListener: () => fakeSocket,
  destroy: () => fakeSocket,
  resume: () => fakeSocket,
  pause: () => fakeSocket,
  setTimeout: () => fakeSocket,
} as unknown as Socket;

type Classes = { readonly IncomingMessage: typeof IncomingMessage; readonly ServerResponse: typeof ServerResponse };
const NODE_CLASSES: Classes = { IncomingMessage, ServerResponse };
const classesByApp = new WeakMap<RequestListener, Classes>();

/**
 * The request and response classes for `app`: born with an express app's own prototypes (as `listen` makes
 * them for sockets, see serverClasses), so express does not swap them per request; V8 would give each swapped
 * object maps of its own (memory held by every waiting long-poll, and slower code on them). Node's classes for
 * any other listener.
 */
function classesFor(app: RequestListener): Classes {
  let classes = classesByApp.get(app);
  if (!classes) {
    const prototypes = requestPrototypes(app);
    classes = (prototypes && serverClasses(prototypes)) ?? NODE_CLASSES;
    classesByApp.set(app, classes);
  }
  return classes;
}

function buildRequest(request: DispatchRequest, classes: Classes): InProcessRequest {
  const req = new classes.IncomingMessage(fakeSocket) as InProcessRequest;
  req.method = request.method.toUpperCase();
  req.url = checkTarget(request.path);
  req.httpVersionMajor = 1;
  req.httpVersionMinor = 1;
  req.httpVersion = '1.1';
  req.complete = true;
  const headers: IncomingHttpHeaders = {};
  const raw: string[] = [];
  for (const field in request.headers) {
    const value = request.headers[field];
    if (value === undefined) continue;
    const name = field.toLowerCase();
    if (Array.isArray(value)) {
      const values = value.map(String);
      headers[name] = joinHeaderValues(name, values);
      for (const v of values) raw.push(name, v);
    } else {
      headers[name] = String(value);
      raw.push(name, String(value));
    }
  }
  if (headers['user-agent'] === undefined) {
    headers['user-agent'] = 'lightMyRequest';
    raw.push('user-agent', 'lightMyRequest');
  }
  if (!headers.host) {
    headers.host = 'localhost:80';
    raw.push('host', 'localhost:80');
  }
  if (request.body instanceof Readable) {
    streamInto(req, request.body, request.bodyLength, headers, raw);
    return req;
  }
  const body = request.body !== undefined && request.body.length > 0 ? request.body : undefined;
  if (body && !Object.hasOwn(headers, 'content-length')) {
    headers['content-length'] = String(body.length);
    raw.push('content-length', String(body.length));
  }
  req.headers = headers;
  req.rawHeaders = raw;
  req[IN_PROCESS_BODY] = body ?? EMPTY;
  // The stream is filled only when read (busboy, or anything piping the request).
  req._read = readOnce;
  return req;
}

/** A buffered in-process request's `_read`: its body (IN_PROCESS_BODY), then the end; one function for all of them. */
function readOnce(this: InProcessRequest): void {
  this._read = noop;
  const body = this[IN_PROCESS_BODY];
  if (body !== undefined && body.length > 0) this.push(body);
  this.push(null);
}

function noop(): void {}

function toBuffer(chunk: unknown, encoding: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
}

const COLLECTOR = Symbol('in-process-collector');
type InProcessResponse = ServerResponse & { [COLLECTOR]: ResponseSink; _header: unknown; finished: boolean };

// The methods below are own properties of each response (express swaps the prototype for its own).
function writeHead(this: InProcessResponse, statusCode: number, reason?: unknown, headers?: unknown): InProcessResponse {
  if (this._header) throw Object.assign(new Error('Cannot write headers after they are sent to the client'), { code: 'ERR_HTTP_HEADERS_SENT' });
  const code = Number(statusCode);
  if (!Number.isInteger(code) || code < 100 || code > 999) throw Object.assign(new RangeError(`Invalid status code: ${String(statusCode)}`), { code: 'ERR_HTTP_INVALID_STATUS_CODE' });
  this.statusCode = code;
  let extra = headers;
  if (typeof reason === 'string') this.statusMessage = reason;
  else if (reason !== undefined && reason !== null) extra = reason;
  if (Array.isArray(extra)) {
    for (let i = 0; i + 1 < extra.length; i += 2) this.setHeader(String(extra[i]), extra[i + 1] as string);
  } else if (extra && typeof extra === 'object') {
    for (const [name, value] of Object.entries(extra as OutgoingHttpHeaders)) if (value !== undefined) this.setHeader(name, value);
  }
  if (code === 204 || code === 304 || code < 200) this[COLLECTOR].hasBody = false;
  this._header = true;
  this[COLLECTOR].head(this);
  return this;
}

function write(this: InProcessResponse, chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
  const cb = typeof encoding === 'function' ? encoding : callback;
  if (this.finished) {
    const error = Object.assign(new Error('write after end'), { code: 'ERR_STREAM_WRITE_AFTER_END' });
    process.nextTick(() => {
      if (typeof cb === 'function') (cb as (e: Error) => void)(error);
      this.emit('error', error);
    });
    return false;
  }
  if (!this._header) this.writeHead(this.statusCode);
  const sink = this[COLLECTOR];
  let more = true;
  if (sink.hasBody && chunk !== undefined && chunk !== null) more = sink.chunk(toBuffer(chunk, typeof encoding === 'function' ? undefined : encoding));
  if (typeof cb === 'function') process.nextTick(cb as () => void);
  return more;
}

function end(this: InProcessResponse, chunk?: unknown, encoding?: unknown, callback?: unknown): InProcessResponse {
  let data = chunk;
  let enc = encoding;
  let cb = callback;
  if (typeof data === 'function') {
    cb = data;
    data = undefined;
  } else if (typeof enc === 'function') {
    cb = enc;
    enc = undefined;
  }
  if (this.finished) {
    if (typeof cb === 'function') process.nextTick(cb as () => void);
    return this;
  }
  if (data !== undefined && data !== null && data !== '') write.call(this, data, enc);
  if (!this._header) this.writeHead(this.statusCode);
  this.finished = true;
  this[COLLECTOR].finish(this);
  if (typeof cb === 'function') this.once('finish', cb as () => void);
  this.emit('prefinish');
  this.emit('finish');
  process.nextTick(emitClose, this);
  return this;
}

function emitClose(res: InProcessResponse): void {
  res.emit('close');
}

function destroy(this: InProcessResponse, error?: Error): InProcessResponse {
  if (this.destroyed) return this;
  this.destroyed = true;
  this[COLLECTOR].fail(error ?? Object.assign(new Error('response destroyed before completion'), { code: 'LIGHT_ECONNRESET' }));
  // Only to a listener: nothing in the app may be waiting for it, and an unheard 'error' would crash the process.
  if (error) process.nextTick(() => this.listenerCount('error') > 0 && this.emit('error', error));
  process.nextTick(emitClose, this);
  return this;
}

function buildResponse(req: IncomingMessage, sink: ResponseSink, classes: Classes): InProcessResponse {
  const res = new classes.ServerResponse(req) as InProcessResponse;
  sink.hasBody = req.method !== 'HEAD';
  res[COLLECTOR] = sink;
  const own = res as unknown as Record<string, unknown>;
  // Set before express's app.handle, which then keeps it (its own would be a dictionary-mode object).
  own.locals = newLocals();
  own.writeHead = writeHead;
  own.write = write;
  own.end = end;
  own.destroy = destroy;
  return res;
}

/** Runs `app` on one request in this process and resolves with what it answered. */
export function dispatchInProcess(app: RequestListener, request: DispatchRequest): Promise<DispatchResponse> {
  const signal = request.signal;
  return new Promise<DispatchResponse>((resolve, reject) => {
    const classes = classesFor(app);
    const req = buildRequest(request, classes);
    // The caller's client left: the app sees its response close (as a socket's), the call fails.
    const cut = signal ? (): void => void res.destroy() : undefined;
    const listening = signal !== undefined && cut !== undefined && !signal.aborted;
    const ok = listening ? (answer: DispatchResponse): void => (signal.removeEventListener('abort', cut), resolve(answer)) : resolve;
    const failed = listening ? (error: Error): void => (signal.removeEventListener('abort', cut), reject(error)) : reject;
    const res = buildResponse(req, request.streamResponse === true ? streamedSink(ok, failed) : bufferedSink(ok, failed), classes);
    req.on('error', (error: Error) => {
      if (req.destroyed) res.destroy(error);
    });
    if (cut && signal?.aborted) process.nextTick(cut);
    else if (listening) signal.addEventListener('abort', cut, { once: true });
    app(req, res);
  });
}

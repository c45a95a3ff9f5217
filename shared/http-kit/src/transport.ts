import type { IncomingHttpHeaders } from 'node:http';
import type { RequestListener } from 'node:http';
import { Pool, util as undiciUtil, type Dispatcher } from 'undici';
import { AppError, isWireError, unavailable } from '@switchyard/errors';
import type { IncomingMessage } from 'node:http';
import { Readable, type Duplex } from 'node:stream';
import { dispatchInProcess } from './in-process-dispatch';
import { InProcessUpgrades, proxyUpgrade, rejectUpgrade, type UpgradeHandler, type UpgradeTransport } from './upgrade';
import type { ServiceCredential } from './service-credential';

export type HeaderMap = Record<string, string | string[] | undefined>;

export interface InternalRequest {
  readonly method: string;
  /** Path and query string, e.g. `/api/v4/users?page=1`. */
  readonly path: string;
  readonly headers: HeaderMap;
  /**
   * The body: bytes already read, or a stream the service reads as it goes (uploads, ADR 0029). A stream
   * that fails (a cap, a client gone) fails the call; the caller knows why from its own stream.
   */
  readonly body?: Buffer | Readable;
  /** A streamed body's length when known (the client's Content-Length); sent chunked otherwise. */
  readonly bodyLength?: number;
  /**
   * Answer as soon as the status and headers are in, with the body as `stream` (file downloads): the
   * service's writes wait for the caller's reads, so a large answer is never held whole.
   */
  readonly streamResponse?: boolean;
  /**
   * Aborted when the caller's own client left (long-polls): the service sees its client gone (its response
   * closes) and stops waiting; the call then fails. An AbortSignal, or anything as small that says the same.
   */
  readonly signal?: LeaveSignal;
}

/**
 * What a call needs of an AbortSignal: whether it is aborted, and one listener told when it is. An AbortSignal
 * is one; so is the gateway's `ClientGone`, a single object per long-poll where an AbortController, its signal
 * and their event-target bookkeeping are ~0.7 KB of heap per poll waiting (docs/event-stream.md).
 */
export interface LeaveSignal {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { readonly once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

export interface InternalResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** The body, collected; empty when `stream` is given. */
  readonly body: Buffer;
  /**
   * With `streamResponse`: the body as it comes. The caller reads it to the end or destroys it (which
   * stops the service's writes); a service failing midway destroys it with an error (never a clean end).
   */
  readonly stream?: Readable;
}

/** How one service reaches another: sockets in the distributed runtime, in-process in the embedded one. */
export interface ServiceTransport {
  send(service: string, request: InternalRequest): Promise<InternalResponse>;
  close(): Promise<void>;
}


/** Calls each service's express app directly, without a socket or a fake HTTP round trip (embedded runtime). */
export class InProcessTransport implements ServiceTransport, UpgradeTransport {
  private readonly apps: Record<string, RequestListener>;
  private readonly upgrades = new InProcessUpgrades();

  public constructor(apps: Readonly<Record<string, RequestListener>> = {}) {
    this.apps = { ...apps };
  }

  /** Adds a service after construction (services and the transport refer to each other). */
  public register(service: string, app: RequestListener): void {
    this.apps[service] = app;
  }

  /** Adds a service's WebSocket upgrade handler (the gateway hands it upgrades of its routes). */
  public registerUpgrade(service: string, handler: UpgradeHandler): void {
    this.upgrades.register(service, handler);
  }

  public upgrade(service: string, req: IncomingMessage, socket: Duplex, head: Buffer, headers: Readonly<Record<string, string | string[]>>): void {
    this.upgrades.upgrade(service, req, socket, head, headers);
  }

  public async send(service: string, request: InternalRequest): Promise<InternalResponse> {
    const app = this.apps[service];
    if (!app) throw unavailable('api.context.server_busy.app_error', `no service ${service}`);
    return dispatchInProcess(app, request);
  }

  public async close(): Promise<void> {}
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'host', 'content-length', 'expect', 'te', 'trailer', 'proxy-connection']);

/** The cause's code of an undici error (ECONNREFUSED: nothing reached the service). */
function errorCode(error: unknown): string | undefined {
  const e = error as { code?: unknown; cause?: { code?: unknown } } | undefined;
  const code = e?.cause?.code ?? e?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * One request on undici's dispatcher, the whole answer collected in memory: what `pool.request()` and
 * `body.arrayBuffer()` give (status, headers parsed by undici's own `parseHeaders`, body bytes), without
 * the stream, the abort plumbing and the extra promise per call (about 7-14 us less per call here).
 * Informational (1xx) answers are skipped as `request()` skips them.
 */
function exchange(pool: Pool, options: Dispatcher.DispatchOptions, signal?: LeaveSignal): Promise<InternalResponse> {
  return new Promise((resolve, reject) => {
    let status = 0;
    let headers: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    let cut: (() => void) | undefined;
    const settled = (): void => {
      if (cut) signal?.removeEventListener('abort', cut);
    };
    pool.dispatch(options, {
      // The caller's client left: the request is cut (undici closes its connection, so the service sees it go).
      onConnect: signal
        ? (abort) => {
            cut = () => abort(new Error('the client left'));
            if (signal.aborted) cut();
            else signal.addEventListener('abort', cut, { once: true });
          }
        : () => undefined,
      onError: (error) => {
        settled();
        reject(error);
      },
      onUpgrade: () => reject(new Error('unexpected upgrade from a service')),
      onHeaders: (statusCode, rawHeaders) => {
        if (statusCode < 200) return true;
        status = statusCode;
        headers = undiciUtil.parseHeaders(rawHeaders) as IncomingHttpHeaders;
        return true;
      },
      onData: (chunk) => {
        chunks.push(chunk);
        return true;
      },
      onComplete: () => {
        settled();
        resolve({ status, headers, body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks) });
      },
    });
  });
}

const EMPTY = Buffer.alloc(0);

/** One request whose answer is handed on as a stream once its head is in (undici's body: read on demand). */
async function streamedExchange(pool: Pool, options: Dispatcher.RequestOptions): Promise<InternalResponse> {
  const answer = await pool.request(options);
  // Destroyed by a reader that let go, undici's body emits an abort error: heard here so it never crashes the process.
  answer.body.on('error', () => undefined);
  return { status: answer.statusCode, headers: answer.headers as IncomingHttpHeaders, body: EMPTY, stream: answer.body };
}

/** Connections per upstream URL of the pool for ordinary requests. */
const POOL_CONNECTIONS = 64;

export interface HttpTransportOptions {
  /**
   * Requests that may wait long upstream (long-polls such as GET /api/v4/events): they get a pool of their
   * own per upstream URL (at most `connections`), so they never queue the service's other requests behind them.
   */
  readonly longRequests?: { readonly matches: (service: string, path: string) => boolean; readonly connections: number };
}

/**
 * Keep-alive connection pools to each service's base URL (distributed runtime); upgrades are proxied over
 * TCP. A service with replicas is given as `url1|url2`: a request goes to the first replica that accepts
 * the connection (only a refused connection moves on, so nothing is sent twice), and upgrades (WebSocket)
 * are spread over the replicas in turn, skipping one that is down.
 */
export class HttpTransport implements ServiceTransport, UpgradeTransport {
  private readonly pools = new Map<string, Pool>();
  private readonly replicas: Readonly<Record<string, readonly string[]>>;
  private turn = 0;

  private readonly longPools = new Map<string, Pool>();

  public constructor(
    baseUrls: Readonly<Record<string, string>>,
    private readonly timeoutMs = 30_000,
    private readonly options: HttpTransportOptions = {},
  ) {
    const replicas: Record<string, string[]> = {};
    for (const [service, value] of Object.entries(baseUrls)) replicas[service] = value.split('|').map((u) => u.trim()).filter((u) => u !== '');
    this.replicas = replicas;
  }

  public async send(service: string, request: InternalRequest): Promise<InternalResponse> {
    const urls = this.replicas[service] ?? [];
    if (urls.length === 0) throw unavailable('api.context.server_busy.app_error', `no address for service ${service}`);
    const headers: Record<string, string | string[]> = {};
    for (const name of Object.keys(request.headers)) {
      const value = request.headers[name];
      if (value !== undefined && !HOP_BY_HOP.has(name.toLowerCase())) headers[name] = value;
    }
    const body = request.body;
    const streamed = body instanceof Readable;
    if (streamed && request.bodyLength !== undefined) headers['content-length'] = String(request.bodyLength);
    let failure: unknown;
    const long = this.options.longRequests?.matches(service, request.path) === true;
    for (const url of urls) {
      try {
        const pool = long ? this.longPoolFor(url) : this.poolFor(url);
        const options = {
          method: request.method as Dispatcher.HttpMethod,
          path: request.path,
          headers,
          ...(streamed || (body && body.length > 0) ? { body } : {}),
          headersTimeout: this.timeoutMs,
          bodyTimeout: this.timeoutMs,
        };
        return await (request.streamResponse === true ? streamedExchange(pool, options) : exchange(pool, options, request.signal));
      } catch (error) {
        failure = error;
        // A refused connection read nothing: the next replica may take the same (even streamed) body.
        if (errorCode(error) !== 'ECONNREFUSED') break;
      }
    }
    throw unavailable('api.context.server_busy.app_error', `service ${service} is unavailable`, { cause: failure, detailedError: String(failure) });
  }

  public upgrade(service: string, req: IncomingMessage, socket: Duplex, head: Buffer, headers: Readonly<Record<string, string | string[]>>): void {
    const urls = this.replicas[service] ?? [];
    if (urls.length === 0) {
      rejectUpgrade(socket, 503, 'Service Unavailable');
      return;
    }
    const first = this.turn++ % urls.length;
    proxyUpgrade([...urls.slice(first), ...urls.slice(0, first)], req, socket, head, headers);
  }

  public async close(): Promise<void> {
    await Promise.all([...this.pools.values(), ...this.longPools.values()].map((p) => p.close()));
  }

  private poolFor(url: string): Pool {
    let pool = this.pools.get(url);
    if (!pool) {
      pool = new Pool(url, { connections: POOL_CONNECTIONS, pipelining: 1 });
      this.pools.set(url, pool);
    }
    return pool;
  }

  private longPoolFor(url: string): Pool {
    let pool = this.longPools.get(url);
    if (!pool) {
      pool = new Pool(url, { connections: this.options.longRequests?.connections ?? POOL_CONNECTIONS, pipelining: 1 });
      this.longPools.set(url, pool);
    }
    return pool;
  }
}

/**
 * Calls a JSON endpoint of another service and returns the parsed body; a Mattermost error body from
 * the other side is re-thrown as the same AppError, so it reaches the client unchanged. With `as`, the
 * call carries that service credential, signed for this method and path (internal routes need it).
 */
export async function callJson<T>(
  transport: ServiceTransport,
  service: string,
  request: Omit<InternalRequest, 'body' | 'headers'> & { readonly body?: unknown; readonly headers?: HeaderMap; readonly as?: ServiceCredential },
): Promise<T> {
  const response = await transport.send(service, {
    method: request.method,
    path: request.path,
    headers: { 'content-type': 'application/json', ...(request.headers ?? {}), ...(request.as ? request.as.headers(request.method, request.path) : {}) },
    ...(request.body === undefined ? {} : { body: Buffer.from(JSON.stringify(request.body)) }),
  });
  const text = response.body.toString('utf8');
  const parsed: unknown = text === '' ? undefined : JSON.parse(text);
  if (response.status >= 400) {
    if (isWireError(parsed)) {
      const kind = response.status >= 500 ? 'upstream' : 'validation';
      throw new AppError(kind, { id: parsed.id, message: parsed.message, detailedError: String((parsed as { detailed_error?: unknown }).detailed_error ?? ''), statusCode: response.status });
    }
    throw unavailable('api.context.server_busy.app_error', `service ${service} answered ${response.status}`);
  }
  return parsed as T;
}

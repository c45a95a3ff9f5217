import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

export interface ExchangeRequest {
  readonly url: string;
  readonly method: 'POST' | 'GET';
  readonly headers: Readonly<Record<string, string>>;
  /** Sent with its Content-Length (never chunked); undefined: no body. */
  readonly body?: string;
  /** Socket inactivity limit (ms). */
  readonly timeoutMs: number;
  /** The whole exchange's deadline, answer included. */
  readonly signal: AbortSignal;
  readonly agents: { readonly http: http.Agent; readonly https: https.Agent };
  /** Where the connection goes (the SSRF guard's checked address). */
  readonly lookup: LookupFunction;
  /** The answer's cap after decompression (bytes). */
  readonly maxBytes: number;
}

export interface ExchangeAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** Fails an exchange whose answer is over the cap (the client reports `too_large`). */
export class AnswerTooLarge extends Error {
  public constructor(maxBytes: number) {
    super(`maxContentLength size of ${maxBytes} exceeded`);
  }
}

/** Fails an exchange whose socket stayed idle too long (the client reports `timeout`). */
export class ExchangeTimeout extends Error {
  public readonly code = 'ETIMEDOUT';

  public constructor(timeoutMs: number) {
    super(`timeout of ${timeoutMs}ms exceeded`);
  }
}

function decoded(response: http.IncomingMessage): Readable {
  const encoding = String(response.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return response.pipe(createGunzip());
  if (encoding === 'deflate') return response.pipe(createInflate());
  if (encoding === 'br') return response.pipe(createBrotliDecompress());
  return response;
}

/**
 * One HTTP request and its whole answer with node's client (no redirects followed: the caller checks each
 * hop). The connection goes through the given agent to the address `lookup` gives; the answer is
 * decompressed (gzip, deflate, br) and capped.
 */
export function exchange(request: ExchangeRequest): Promise<ExchangeAnswer> {
  return new Promise<ExchangeAnswer>((resolve, reject) => {
    const target = new URL(request.url);
    const secure = target.protocol === 'https:';
    const headers: Record<string, string> = { ...request.headers };
    if (request.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(request.body));
    let settled = false;
    const fail = (error: unknown): void => {
      if (settled) return;
      settled = true;
      outgoing.destroy();
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    const outgoing = (secure ? https : http).request(target, { method: request.method, headers, agent: secure ? request.agents.https : request.agents.http, lookup: request.lookup, signal: request.signal, timeout: request.timeoutMs });
    outgoing.on('timeout', () => fail(new ExchangeTimeout(request.timeoutMs)));
    outgoing.on('error', fail);
    outgoing.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const body = decoded(response);
      body.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > request.maxBytes) fail(new AnswerTooLarge(request.maxBytes));
        else chunks.push(chunk);
      });
      body.on('error', fail);
      response.on('error', fail);
      response.on('aborted', () => fail(new Error('the answer was aborted')));
      body.on('end', () => {
        if (settled) return;
        settled = true;
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) });
      });
    });
    outgoing.end(request.body);
  });
}

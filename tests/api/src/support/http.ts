import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';

/** A raw HTTP answer: status, headers, the body text and, when the body is JSON, its parsed value. */
export interface RawResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly json: any;
  readonly cookies: string[];
}

export interface RawOptions {
  /** Sent as `Authorization: Bearer <token>`. */
  readonly token?: string;
  /** Serialised with JSON.stringify. */
  readonly body?: unknown;
  /** Sent as is (malformed JSON, oversized bodies). Wins over `body`. */
  readonly rawBody?: string;
  readonly headers?: Record<string, string>;
}

const REQUEST_TIMEOUT_MS = 20_000;

/** One request with plain fetch: what a client other than `@mattermost/client` would send. */
export async function raw(baseUrl: string, method: string, path: string, options: RawOptions = {}): Promise<RawResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.Authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
    headers['Content-Type'] = 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  const text = await response.text();
  let json: unknown;
  if ((response.headers.get('content-type') ?? '').startsWith('application/json') && text !== '') {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  return { status: response.status, headers: response.headers, text, json, cookies: response.headers.getSetCookie() };
}

/**
 * Asserts a Mattermost-style error answer: the status, `Content-Type` exactly `application/json`, and the
 * error object `{id, message, detailed_error, request_id, status_code}` whose request_id is the
 * `X-Request-ID` header. `id` may be a string (exact) or a RegExp.
 */
export function assertAppError(response: RawResponse, status: number, id: string | RegExp): void {
  const where = `${status} ${String(id ?? '')}; got ${response.status} ${response.text.slice(0, 300)}`;
  assert.equal(response.status, status, `status: expected ${where}`);
  assert.equal(response.headers.get('content-type'), 'application/json', `content-type: expected ${where}`);
  const body = response.json as Record<string, unknown> | undefined;
  assert.ok(body && typeof body === 'object', `a JSON error object: expected ${where}`);
  assert.equal(typeof body.id, 'string', `error id is a string: ${where}`);
  assert.notEqual(body.id, '', `error id is not empty: ${where}`);
  if (typeof id === 'string') assert.equal(body.id, id, `error id: expected ${where}`);
  else if (id instanceof RegExp) assert.match(String(body.id), id, `error id: expected ${where}`);
  assert.equal(typeof body.message, 'string', `error message is a string: ${where}`);
  assert.ok('detailed_error' in body, `detailed_error is present: ${where}`);
  assert.equal(body.status_code, status, `status_code equals the HTTP status: ${where}`);
  assert.equal(body.request_id, response.headers.get('x-request-id'), `request_id equals X-Request-ID: ${where}`);
}

/** Asserts a successful JSON answer with `Content-Type` exactly `application/json`. */
export function assertJson(response: RawResponse, status: number): void {
  assert.equal(response.status, status, `expected ${status}, got ${response.status} ${response.text.slice(0, 300)}`);
  assert.equal(response.headers.get('content-type'), 'application/json');
}

/** The value of one cookie in a list of Set-Cookie lines, or undefined. */
export function cookieValue(setCookies: string[], name: string): string | undefined {
  for (const line of setCookies) {
    const [pair] = line.split(';');
    const eq = pair?.indexOf('=') ?? -1;
    if (pair !== undefined && eq > 0 && pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim();
  }
  return undefined;
}

/** The whole Set-Cookie line for one cookie, or undefined. */
export function cookieLine(setCookies: string[], name: string): string | undefined {
  return setCookies.find((line) => line.split('=')[0]?.trim() === name);
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One request whose target goes on the wire byte for byte. fetch (WHATWG URL) and most clients resolve
 * `..`, `%2e%2e` and `.%2e` segments before sending, so an attacker's path must be sent this way.
 */
export function rawTarget(baseUrl: string, method: string, target: string, options: RawOptions = {}): Promise<RawResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.Authorization = `Bearer ${options.token}`;
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (body !== undefined) {
    headers['Content-Type'] ??= 'application/json';
    headers['Content-Length'] = String(Buffer.byteLength(body));
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${baseUrl}/`, { method, path: target, headers, agent: false, timeout: REQUEST_TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (value === undefined) continue;
          for (const v of Array.isArray(value) ? value : [value]) responseHeaders.append(name, v);
        }
        let json: unknown;
        if ((res.headers['content-type'] ?? '').startsWith('application/json') && text !== '') {
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
        }
        resolve({ status: res.statusCode ?? 0, headers: responseHeaders, text, json, cookies: responseHeaders.getSetCookie() });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer to ${method} ${target} within ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { IntegrationClient, OutboundRequest, OutboundResult } from '../../domain/ports';
import type { OriginBreakers } from './origin-breakers';
import { ParsedUrls } from './parsed-urls';
import { AllowList, guardUrl, rememberedDecision, type Resolver } from './ssrf-guard';

export const MAX_RESPONSE_BYTES = 1024 * 1024;
const MAX_REDIRECTS = 10;

export const systemResolver: Resolver = async (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

interface FilteringAgentModule {
  RequestFilteringHttpAgent: new (options: http.AgentOptions & { allowIPAddressList?: string[] }) => http.Agent;
  RequestFilteringHttpsAgent: new (options: https.AgentOptions & { allowIPAddressList?: string[] }) => https.Agent;
}

export interface HttpIntegrationClientOptions {
  /** `AllowedUntrustedInternalConnections`, read per request (live config). */
  readonly allowList: () => string;
  readonly breakers: OriginBreakers;
  readonly resolver?: Resolver;
  readonly maxResponseBytes?: number;
}

/**
 * The one outbound HTTP client of integration calls. Each request (and each redirect hop) is checked by
 * the SSRF guard, then sent with the connection pinned to the checked address; public addresses go
 * through request-filtering-agent as a second check at connect time. Redirects are followed by hand
 * (301/302/303 become GET, 307/308 repeat the POST), so every hop is checked again. Responses over the
 * cap fail; every origin sits behind its circuit breaker. Requests go out on node's http/https modules
 * with keep-alive agents (ADR 0037: axios' per-call configuration work was a sixth of a delivery's CPU);
 * like the reference's Go client, a request asks for `gzip` and a gzip answer is decoded.
 */
export class HttpIntegrationClient implements IntegrationClient {
  private readonly resolver: Resolver;
  private readonly maxBytes: number;
  private agentModule: Promise<FilteringAgentModule> | undefined;
  private filtering: { key: string; http: http.Agent; https: https.Agent } | undefined;
  private readonly plainHttp = new http.Agent({ keepAlive: true, maxSockets: 256 });
  private readonly plainHttps = new https.Agent({ keepAlive: true, maxSockets: 256 });

  /** The parsed allow-list of the last setting seen (the setting is read per request; parsing it is not free). */
  private allowList: AllowList | undefined;
  private readonly callbackUrls = new ParsedUrls();

  public constructor(private readonly options: HttpIntegrationClientOptions) {
    this.resolver = options.resolver ?? systemResolver;
    this.maxBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  }

  public post(request: OutboundRequest): Promise<OutboundResult> {
    const first = this.callbackUrls.get(request.url);
    if (first === undefined) return Promise.resolve({ kind: 'failure', reason: 'blocked', message: 'invalid URL', latencyMs: 0 });
    return this.options.breakers.run(first.origin, () => this.send(request, first.url, first.origin));
  }

  public close(): void {
    this.plainHttp.destroy();
    this.plainHttps.destroy();
    this.filtering?.http.destroy();
    this.filtering?.https.destroy();
  }

  private async send(request: OutboundRequest, first: URL, firstOrigin: string): Promise<OutboundResult> {
    const started = performance.now();
    const latency = (): number => Math.round((performance.now() - started) * 100) / 100;
    const setting = this.options.allowList();
    if (this.allowList?.setting !== setting) this.allowList = new AllowList(setting);
    const allow = this.allowList;
    // One deadline for every hop (a timer per hop for what is left of it; no AbortSignal per request).
    const deadline = started + request.timeoutMs;
    let target = first;
    let method: 'POST' | 'GET' = request.method ?? 'POST';
    const body = Buffer.from(request.body);
    // Once a redirect leaves the first origin, the hook's secrets (the body's token, the signatures) stay behind.
    let crossed = false;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
      const decision = rememberedDecision(target, allow) ?? (await guardUrl(target, allow, this.resolver));
      if (!decision.allowed) return { kind: 'failure', reason: 'blocked', message: `blocked: ${decision.reason}`, latencyMs: latency() };
      const pinned: LookupFunction = (_hostname, options, callback) => {
        if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: decision.address, family: decision.family }]);
        else callback(null, decision.address, decision.family);
      };
      const agents = decision.viaAllowList ? { http: this.plainHttp, https: this.plainHttps } : await this.filteringAgents(allow);
      const headers = crossed ? neutralHeaders(request.headers) : method === 'POST' ? request.headers : omitBodyHeaders(request.headers);
      let response: RawResponse;
      try {
        response = await exchange(target, {
          method,
          headers,
          body: method === 'POST' ? body : undefined,
          agent: target.protocol === 'https:' ? agents.https : agents.http,
          lookup: pinned,
          deadline,
          timeoutMs: request.timeoutMs,
          maxBytes: this.maxBytes,
        });
      } catch (error) {
        return { ...classify(error), latencyMs: latency() };
      }
      const location = response.headers.location;
      if (response.status >= 300 && response.status < 400 && location) {
        try {
          target = new URL(location, target);
        } catch {
          return { kind: 'failure', reason: 'blocked', message: 'blocked: invalid URL', latencyMs: latency() };
        }
        const keepsBody = response.status === 307 || response.status === 308;
        if (!keepsBody) method = 'GET';
        if (target.origin !== firstOrigin) {
          // 307/308 would resend the body, and the body carries the hook's token: not to another origin.
          if (keepsBody && method === 'POST') return { kind: 'failure', reason: 'blocked', message: `blocked: a ${response.status} redirect to another origin would resend the token`, latencyMs: latency() };
          crossed = true;
        }
        continue;
      }
      const retryAfter = response.headers['retry-after'];
      const contentType = response.headers['content-type'];
      return {
        kind: 'response',
        status: response.status,
        statusText: response.statusText,
        contentType: contentType ?? '',
        ...(retryAfter !== undefined ? { retryAfter } : {}),
        body: response.body.toString('utf8'),
        latencyMs: latency(),
      };
    }
    return { kind: 'failure', reason: 'connection', message: 'too many redirects', latencyMs: latency() };
  }

  private async filteringAgents(allow: AllowList): Promise<{ http: http.Agent; https: https.Agent }> {
    const key = allow.ipEntries.join(' ');
    if (this.filtering?.key === key) return this.filtering;
    this.agentModule ??= import('request-filtering-agent') as Promise<FilteringAgentModule>;
    const module = await this.agentModule;
    const options = { keepAlive: true, maxSockets: 256, allowIPAddressList: [...allow.ipEntries] };
    this.filtering?.http.destroy();
    this.filtering?.https.destroy();
    this.filtering = { key, http: new module.RequestFilteringHttpAgent(options), https: new module.RequestFilteringHttpsAgent(options) };
    return this.filtering;
  }
}

/** What a request to another origin may carry: no signatures (webhook-*), credentials or body headers. */
const NEUTRAL_HEADERS = new Set(['user-agent', 'accept', 'accept-language']);

export function neutralHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => NEUTRAL_HEADERS.has(k.toLowerCase())));
}

function omitBodyHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== 'content-type'));
}

interface RawResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

interface Exchange {
  readonly method: 'POST' | 'GET';
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Buffer;
  readonly agent: http.Agent;
  readonly lookup: LookupFunction;
  /** When the whole call (every hop) must have ended (`performance.now()` time). */
  readonly deadline: number;
  /** The call's timeout, for the error's message. */
  readonly timeoutMs: number;
  readonly maxBytes: number;
}

/** The call's deadline passed (classified as a timeout). */
class DeadlineExceeded extends Error {
  public readonly code = 'ETIMEDOUT';
  public constructor(timeoutMs: number) {
    super(`timeout of ${timeoutMs} ms exceeded`);
  }
}

/**
 * One request and its whole answer (gzip decoded), at most `maxBytes` of it; rejects with the request's error,
 * or DeadlineExceeded once the deadline passes (the request is destroyed, whatever phase it is in). The
 * request is given as options, not the URL object: node would otherwise convert the URL on every request.
 */
function exchange(url: URL, options: Exchange): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const left = options.deadline - performance.now();
    if (left <= 0) {
      reject(new DeadlineExceeded(options.timeoutMs));
      return;
    }
    let timedOut = false;
    const settle = <T>(done: (value: T) => void) => (value: T): void => {
      clearTimeout(timer);
      done(value);
    };
    const fail = settle((error: unknown) => reject(timedOut ? new DeadlineExceeded(options.timeoutMs) : error));
    const succeed = settle(resolve);
    const send = url.protocol === 'https:' ? https.request : http.request;
    const request = send(requestOptions(url, options), (response) => {
      readAll(response, options.maxBytes).then(
        (body) => succeed({ status: response.statusCode ?? 0, statusText: response.statusMessage ?? '', headers: response.headers, body }),
        (error: unknown) => {
          request.destroy();
          fail(error);
        },
      );
    });
    // Set here rather than copied into the caller's headers (a copy plus a new key per request).
    request.setHeader('Accept-Encoding', 'gzip');
    const timer = setTimeout(() => {
      timedOut = true;
      request.destroy(new DeadlineExceeded(options.timeoutMs));
    }, left);
    request.on('error', fail);
    request.end(options.body);
  });
}

/** What node's request() would take from the URL (urlToHttpOptions), with the exchange's settings. */
function requestOptions(url: URL, options: Exchange): http.RequestOptions {
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return {
    protocol: url.protocol,
    hostname,
    ...(url.port !== '' ? { port: Number(url.port) } : {}),
    path: `${url.pathname}${url.search}`,
    ...(url.username !== '' || url.password !== '' ? { auth: `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` } : {}),
    method: options.method,
    headers: options.headers,
    agent: options.agent,
    lookup: options.lookup,
  };
}

/** An answer longer than the cap (after gzip decoding). */
class ResponseTooLarge extends Error {
  public constructor(maxBytes: number) {
    super(`response over ${maxBytes} bytes`);
  }
}

/** The answer's body, gzip decoded when it says so; rejects over `maxBytes` (decoded) or when the answer breaks off. */
function readAll(response: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const gzip = /^\s*(x-)?gzip\s*$/i.test(String(response.headers['content-encoding'] ?? ''));
  const source: Readable = gzip ? response.pipe(createGunzip()) : response;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (error: unknown): void => {
      if (settled) return;
      settled = true;
      source.destroy();
      reject(error);
    };
    source.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) fail(new ResponseTooLarge(maxBytes));
      else chunks.push(chunk);
    });
    source.on('end', () => {
      settled = true;
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    });
    source.on('error', fail);
    source.on('close', () => fail(new Error('the answer was cut off')));
    if (gzip) response.on('error', fail);
  });
}

function classify(error: unknown): Omit<Extract<OutboundResult, { kind: 'failure' }>, 'latencyMs'> {
  const e = error as { code?: string; message?: string; cause?: { message?: string } };
  const message = e.message ?? String(error);
  if (error instanceof ResponseTooLarge) return { kind: 'failure', reason: 'too_large', message: 'response too large' };
  if (/not allowed\. Because/i.test(message) || /not allowed\. Because/i.test(e.cause?.message ?? '')) return { kind: 'failure', reason: 'blocked', message: `blocked: ${message}` };
  if (e.code === 'ECONNABORTED' || e.code === 'ETIMEDOUT' || e.code === 'ERR_CANCELED' || e.code === 'ABORT_ERR' || /timeout|aborted/i.test(message)) return { kind: 'failure', reason: 'timeout', message: `timeout: ${message}` };
  return { kind: 'failure', reason: 'connection', message: `${e.code ?? 'error'}: ${message}` };
}

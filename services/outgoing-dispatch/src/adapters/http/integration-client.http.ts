import http from 'node:http';
import https from 'node:https';
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import axios, { type AxiosInstance, type AxiosResponse } from 'axios';
import type { IntegrationClient, OutboundRequest, OutboundResult } from '../../domain/ports';
import type { OriginBreakers } from './origin-breakers';
import { AllowList, guardUrl, type Resolver } from './ssrf-guard';

export const MAX_RESPONSE_BYTES = 1024 * 1024;
const MAX_REDIRECTS = 10;

export const systemResolver: Resolver = async (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

interface FilteringAgentModule {
  RequestFilteringHttpAgent: new (options: http.AgentOptions & { allowIPAddressList?: string[] }) => http.Agent;
  RequestFilteringHttpsAgent: new (options: https.AgentOptions & { allowIPAddressList?: string[] }) => https.Agent;
}

export interface AxiosIntegrationClientOptions {
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
 * cap fail; every origin sits behind its circuit breaker.
 */
export class AxiosIntegrationClient implements IntegrationClient {
  private readonly http: AxiosInstance;
  private readonly resolver: Resolver;
  private readonly maxBytes: number;
  private agentModule: Promise<FilteringAgentModule> | undefined;
  private filtering: { key: string; http: http.Agent; https: https.Agent } | undefined;
  private readonly plainHttp = new http.Agent({ keepAlive: true, maxSockets: 256 });
  private readonly plainHttps = new https.Agent({ keepAlive: true, maxSockets: 256 });

  public constructor(private readonly options: AxiosIntegrationClientOptions) {
    this.resolver = options.resolver ?? systemResolver;
    this.maxBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
    this.http = axios.create({ proxy: false, maxRedirects: 0, validateStatus: () => true, responseType: 'arraybuffer', transformResponse: (d: unknown) => d, decompress: true });
  }

  public async post(request: OutboundRequest): Promise<OutboundResult> {
    let origin: string;
    try {
      origin = new URL(request.url).origin;
    } catch {
      return { kind: 'failure', reason: 'blocked', message: 'invalid URL', latencyMs: 0 };
    }
    return this.options.breakers.run(origin, () => this.send(request));
  }

  public close(): void {
    this.plainHttp.destroy();
    this.plainHttps.destroy();
    this.filtering?.http.destroy();
    this.filtering?.https.destroy();
  }

  private async send(request: OutboundRequest): Promise<OutboundResult> {
    const started = performance.now();
    const latency = (): number => Math.round((performance.now() - started) * 100) / 100;
    const allow = new AllowList(this.options.allowList());
    const deadline = AbortSignal.timeout(request.timeoutMs);
    let url = request.url;
    let method: 'POST' | 'GET' = request.method ?? 'POST';
    const firstOrigin = new URL(request.url).origin;
    // Once a redirect leaves the first origin, the hook's secrets (the body's token, the signatures) stay behind.
    let crossed = false;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
      const decision = await guardUrl(url, allow, this.resolver);
      if (!decision.allowed) return { kind: 'failure', reason: 'blocked', message: `blocked: ${decision.reason}`, latencyMs: latency() };
      const pinned: LookupFunction = (_hostname, options, callback) => {
        if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: decision.address, family: decision.family }]);
        else callback(null, decision.address, decision.family);
      };
      const agents = decision.viaAllowList ? { http: this.plainHttp, https: this.plainHttps } : await this.filteringAgents(allow);
      let response: AxiosResponse<ArrayBuffer>;
      try {
        response = await this.http.request<ArrayBuffer>({
          url,
          method,
          headers: crossed ? neutralHeaders(request.headers) : method === 'POST' ? { ...request.headers } : omitBodyHeaders(request.headers),
          ...(method === 'POST' ? { data: request.body } : {}),
          timeout: request.timeoutMs,
          signal: deadline,
          maxContentLength: this.maxBytes,
          maxBodyLength: Math.max(this.maxBytes, Buffer.byteLength(request.body) + 1),
          httpAgent: agents.http,
          httpsAgent: agents.https,
          lookup: pinned,
        } as Parameters<AxiosInstance['request']>[0]);
      } catch (error) {
        return { ...classify(error), latencyMs: latency() };
      }
      const location = response.headers.location as string | undefined;
      if (response.status >= 300 && response.status < 400 && location) {
        url = new URL(location, url).toString();
        const keepsBody = response.status === 307 || response.status === 308;
        if (!keepsBody) method = 'GET';
        if (new URL(url).origin !== firstOrigin) {
          // 307/308 would resend the body, and the body carries the hook's token: not to another origin.
          if (keepsBody && method === 'POST') return { kind: 'failure', reason: 'blocked', message: `blocked: a ${response.status} redirect to another origin would resend the token`, latencyMs: latency() };
          crossed = true;
        }
        continue;
      }
      const retryAfter = response.headers['retry-after'] as string | undefined;
      const contentType = response.headers['content-type'] as string | undefined;
      return {
        kind: 'response',
        status: response.status,
        statusText: response.statusText,
        contentType: contentType === undefined ? '' : String(contentType),
        ...(retryAfter !== undefined ? { retryAfter: String(retryAfter) } : {}),
        body: Buffer.from(response.data ?? new ArrayBuffer(0)).toString('utf8'),
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

function classify(error: unknown): Omit<Extract<OutboundResult, { kind: 'failure' }>, 'latencyMs'> {
  const e = error as { code?: string; message?: string; cause?: { message?: string } };
  const message = e.message ?? String(error);
  if (/maxContentLength|maxBodyLength/i.test(message)) return { kind: 'failure', reason: 'too_large', message: 'response too large' };
  if (/not allowed\. Because/i.test(message) || /not allowed\. Because/i.test(e.cause?.message ?? '')) return { kind: 'failure', reason: 'blocked', message: `blocked: ${message}` };
  if (e.code === 'ECONNABORTED' || e.code === 'ETIMEDOUT' || e.code === 'ERR_CANCELED' || /timeout|aborted/i.test(message)) return { kind: 'failure', reason: 'timeout', message: `timeout: ${message}` };
  return { kind: 'failure', reason: 'connection', message: `${e.code ?? 'error'}: ${message}` };
}

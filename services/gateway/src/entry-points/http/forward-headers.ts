import type { IncomingHttpHeaders } from 'node:http';
import type { HeaderMap } from '@switchyard/http-kit';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'trailers',
  'transfer-encoding',
  'upgrade',
]);

/** Not passed on in either direction: hop-by-hop, plus the ones each hop sets itself. */
const REQUEST_DROPPED = new Set([...HOP_BY_HOP, 'host', 'content-length', 'expect', 'x-request-id', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host']);
const RESPONSE_DROPPED = new Set([...HOP_BY_HOP, 'content-length', 'x-request-id']);

const NONE: ReadonlySet<string> = new Set();

/** Headers named in `Connection: a, b` are hop-by-hop too. */
function connectionTokens(headers: IncomingHttpHeaders): ReadonlySet<string> {
  const value = headers.connection;
  if (value === undefined) return NONE;
  const list = Array.isArray(value) ? value.join(',') : value;
  return new Set(list.split(',').map((t) => t.trim().toLowerCase()).filter((t) => t !== ''));
}

export interface ForwardContext {
  readonly requestId: string;
  readonly clientIp: string;
  readonly protocol: string;
  /** Signed identity headers, when the request is authenticated. */
  readonly identity: Readonly<Record<string, string>>;
  /**
   * Trace-context headers the gateway's own instrumentation writes on the call to the service (the
   * active propagator's fields; none without OpenTelemetry). The client's copies are dropped: two
   * `traceparent` headers reach the service joined into one invalid value, and its trace starts over.
   * The gateway's value is a child of the client's, so the trace id goes on.
   */
  readonly ownTraceHeaders?: readonly string[];
}

/**
 * The headers a service receives: the client's, minus hop-by-hop ones and minus every `x-switchyard-*`
 * (so identity cannot be forged), plus the gateway's request id, client address and signed identity.
 */
export function upstreamRequestHeaders(incoming: IncomingHttpHeaders, context: ForwardContext): HeaderMap {
  const connection = connectionTokens(incoming);
  const trace = context.ownTraceHeaders ?? [];
  const extra = trace.length === 0 ? connection : new Set([...connection, ...trace.map((name) => name.toLowerCase())]);
  const out: HeaderMap = {};
  for (const name of Object.keys(incoming)) {
    const value = incoming[name];
    if (value === undefined || REQUEST_DROPPED.has(name) || extra.has(name) || name.startsWith('x-switchyard-')) continue;
    out[name] = value;
  }
  if (typeof incoming.host === 'string') out['x-forwarded-host'] = incoming.host;
  out['x-forwarded-for'] = context.clientIp;
  out['x-forwarded-proto'] = context.protocol;
  out['x-request-id'] = context.requestId;
  for (const name of Object.keys(context.identity)) out[name] = context.identity[name];
  return out;
}

/** A service's response headers as the client gets them (hop-by-hop removed; length set by the gateway). */
export function clientResponseHeaders(upstream: IncomingHttpHeaders): Record<string, string | string[]> {
  const extra = connectionTokens(upstream);
  const out: Record<string, string | string[]> = {};
  for (const name of Object.keys(upstream)) {
    const value = upstream[name];
    if (value === undefined || RESPONSE_DROPPED.has(name) || extra.has(name)) continue;
    out[name] = value;
  }
  return out;
}

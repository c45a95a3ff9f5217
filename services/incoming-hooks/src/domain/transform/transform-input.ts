/** What a transform expression reads: `{body, headers, query}` (spec "Hook transform"). */
export interface TransformInput {
  readonly body: unknown;
  /** Lower-case names; repeated headers joined with ", ". Credentials and internal headers left out. */
  readonly headers: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string | readonly string[]>>;
}

/**
 * Headers an expression never sees: credentials (a post could otherwise show them in a channel; GitLab's
 * token is the hook's secret itself) and the gateway's internal ones (identity, signatures).
 */
const HIDDEN = new Set(['authorization', 'proxy-authorization', 'cookie', 'x-gitlab-token', 'x-csrf-token']);
const HIDDEN_PREFIX = 'x-switchyard-';

export function expressionHeaders(headers: Readonly<Record<string, string | readonly string[] | undefined>>): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [rawName, value] of Object.entries(headers)) {
    const name = rawName.toLowerCase();
    if (value === undefined || HIDDEN.has(name) || name.startsWith(HIDDEN_PREFIX)) continue;
    out[name] = typeof value === 'string' ? value : value.join(', ');
  }
  return out;
}

export function queryObject(query: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of new URLSearchParams(query)) {
    const seen = out[name];
    if (seen === undefined) out[name] = value;
    else out[name] = Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return out;
}

/** A header value as a string ('' when absent). `headers` are the raw request headers (lower-case names). */
export function headerValue(headers: Readonly<Record<string, string | readonly string[] | undefined>>, name: string): string {
  const value = headers[name];
  if (value === undefined) return '';
  return typeof value === 'string' ? value : (value[0] ?? '');
}

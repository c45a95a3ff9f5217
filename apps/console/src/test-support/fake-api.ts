/** A request the console made, as the fake server saw it. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
}

export type FakeRoute = (request: SeenRequest) => { status?: number; body?: unknown } | undefined;

/**
 * Replaces `fetch` (and the bits of `window`/`document` the API client reads) for unit tests: each request is
 * recorded and answered by the first route that answers it (else 404 with an AppError). `restore()` puts them back.
 */
export function fakeApi(routes: readonly FakeRoute[], cookie = 'MMCSRF=csrf-1') {
  const seen: SeenRequest[] = [];
  const g = globalThis as Record<string, unknown>;
  const saved = { fetch: g.fetch, window: g.window, document: g.document };
  g.window = { location: { origin: 'http://console.test', protocol: 'http:', host: 'console.test' } };
  g.document = { cookie };
  g.fetch = async (input: URL | string, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const headers = Object.fromEntries(Object.entries((init.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
    const raw = init.body;
    const body = typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw;
    const request: SeenRequest = { method: init.method ?? 'GET', path: url.pathname, query: Object.fromEntries(url.searchParams), headers, body };
    seen.push(request);
    const answer = routes.map((route) => route(request)).find((a) => a !== undefined) ?? { status: 404, body: { id: 'api.context.404.app_error', message: 'Not found', status_code: 404 } };
    return new Response(answer.body === undefined ? '' : JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { 'Content-Type': 'application/json' } });
  };
  return {
    seen,
    restore: () => Object.assign(g, saved),
  };
}

/** A route answering `method path` (exact path under the origin) with `body`. */
export function route(method: string, path: string, body: unknown, status = 200): FakeRoute {
  return (request) => (request.method === method && request.path === path ? { status, body } : undefined);
}

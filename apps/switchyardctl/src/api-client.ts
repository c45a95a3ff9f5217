import { open, rename } from 'node:fs/promises';
import { UsageError } from './usage-error';

/**
 * A small fetch wrapper over the Mattermost-compatible REST API v4. Every failure becomes an ApiError that
 * carries the server's error id (the `id` of the Mattermost error JSON), so the CLI can print it.
 */

/** Ids the CLI itself uses when the server gave none (unreachable server, a body that is not error JSON). */
export const CliErrorIds = {
  connectionFailed: 'switchyardctl.connection_failed',
  unexpectedResponse: 'switchyardctl.unexpected_response',
  missingToken: 'switchyardctl.login.missing_token_header',
} as const;

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    /** The Mattermost error id, e.g. `api.context.session_expired.app_error`. */
    readonly id: string,
    message: string,
    /** HTTP status; 0 when no response arrived. */
    readonly statusCode: number,
    readonly requestId?: string,
    readonly detailedError?: string,
  ) {
    super(message);
  }
}

/** Brand check instead of instanceof (STYLE.md: match on `name`). */
export function isApiError(error: unknown): error is ApiError {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'ApiError';
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RequestOptions {
  readonly query?: Record<string, string | number | boolean | undefined>;
  readonly body?: unknown;
}

export interface ApiResponse<T> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
}

export interface ApiClientOptions {
  /** Server root, e.g. `http://127.0.0.1:8065` (a trailing slash or `/api/v4` suffix is tolerated). */
  readonly baseUrl: string;
  readonly token?: string;
  readonly userAgent?: string;
}

export class ApiClient {
  readonly baseUrl: string;
  private token: string | undefined;
  private readonly userAgent: string;

  constructor(options: ApiClientOptions) {
    this.baseUrl = normaliseBaseUrl(options.baseUrl);
    this.token = options.token;
    this.userAgent = options.userAgent ?? 'switchyardctl';
  }

  /** The server root without credentials, safe to print. */
  get displayUrl(): string {
    return this.baseUrl;
  }

  setToken(token: string | undefined): void {
    this.token = token;
  }

  hasToken(): boolean {
    return this.token !== undefined && this.token !== '';
  }

  async get<T>(path: string, query?: RequestOptions['query']): Promise<T> {
    return (await this.request<T>('GET', path, { query })).body;
  }

  async post<T>(path: string, body?: unknown): Promise<T> {
    return (await this.request<T>('POST', path, { body })).body;
  }

  async put<T>(path: string, body?: unknown): Promise<T> {
    return (await this.request<T>('PUT', path, { body })).body;
  }

  /**
   * GET `path` (relative to `/api/v4`) and write the body to `file` (through `<file>.partial`, renamed
   * once complete and fsynced). Returns the bytes written. Throws ApiError on any non-2xx answer.
   */
  async download(path: string, file: string): Promise<number> {
    const headers: Record<string, string> = { 'User-Agent': this.userAgent, 'X-Requested-With': 'XMLHttpRequest' };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}/api/v4${path}`, { headers, redirect: 'manual' });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new ApiError(CliErrorIds.connectionFailed, `cannot reach ${this.displayUrl}: ${cause?.code ?? cause?.message ?? String(error)}`, 0);
    }
    if (!response.ok || !response.body) {
      const text = await response.text();
      throw toApiError(response, parseJson(text), text);
    }
    const partial = `${file}.partial`;
    const out = await open(partial, 'w');
    let bytes = 0;
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        await out.write(chunk);
        bytes += chunk.byteLength;
      }
      await out.sync();
    } finally {
      await out.close();
    }
    await rename(partial, file);
    return bytes;
  }

  /** `path` is relative to `/api/v4`, e.g. `/users/me`. Throws ApiError on any non-2xx answer. */
  async request<T>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const url = new URL(`${this.baseUrl}/api/v4${path}`);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'User-Agent': this.userAgent,
      // Like the official client: marks the call as an API call (the server never renders HTML for it).
      'X-Requested-With': 'XMLHttpRequest',
    };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    let payload: string | undefined;
    if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(options.body);
    }

    let response: Response;
    try {
      response = await fetch(url, { method, headers, body: payload, redirect: 'manual' });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const reason = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
      throw new ApiError(CliErrorIds.connectionFailed, `cannot reach ${this.displayUrl}: ${reason}`, 0);
    }

    const text = await response.text();
    const parsed = parseJson(text);
    if (!response.ok) throw toApiError(response, parsed, text);
    if (text !== '' && parsed === undefined) {
      throw new ApiError(
        CliErrorIds.unexpectedResponse,
        `${method} ${path} answered ${response.status} with a body that is not JSON`,
        response.status,
        response.headers.get('x-request-id') ?? undefined,
      );
    }
    return { status: response.status, headers: response.headers, body: parsed as T };
  }
}

function normaliseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`invalid --url: ${JSON.stringify(raw)} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`invalid --url: use http:// or https://`);
  if (url.username || url.password) throw new UsageError('invalid --url: credentials in the URL are not accepted; use --token or --login');
  url.search = '';
  url.hash = '';
  return url.toString().replace(/\/+$/, '').replace(/\/api\/v4$/, '');
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function toApiError(response: Response, parsed: unknown, text: string): ApiError {
  const headerRequestId = response.headers.get('x-request-id') ?? undefined;
  if (typeof parsed === 'object' && parsed !== null && typeof (parsed as { id?: unknown }).id === 'string') {
    const body = parsed as { id: string; message?: unknown; request_id?: unknown; detailed_error?: unknown };
    return new ApiError(
      body.id,
      typeof body.message === 'string' && body.message !== '' ? body.message : body.id,
      response.status,
      typeof body.request_id === 'string' && body.request_id !== '' ? body.request_id : headerRequestId,
      typeof body.detailed_error === 'string' && body.detailed_error !== '' ? body.detailed_error : undefined,
    );
  }
  // Not a Mattermost error object (a proxy page, the reference's plain-text 429): keep a short excerpt.
  const excerpt = text.trim().replace(/\s+/g, ' ').slice(0, 200);
  const statusText = response.statusText ? ` ${response.statusText}` : '';
  return new ApiError(
    `http.${response.status}`,
    `HTTP ${response.status}${statusText}${excerpt ? `: ${excerpt}` : ''}`,
    response.status,
    headerRequestId,
  );
}

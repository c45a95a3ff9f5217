/** The Mattermost-style error object every failing API call answers with. */
export interface AppErrorBody {
  readonly id: string;
  readonly message: string;
  readonly detailed_error?: string;
  readonly request_id?: string;
  readonly status_code: number;
}

/** A failed API call: the HTTP status and, when the server sent one, its AppError. */
export class ApiError extends Error {
  public readonly status: number;
  public readonly body: AppErrorBody | undefined;

  public constructor(status: number, body: AppErrorBody | undefined) {
    super(body?.message ?? `The server answered ${status}.`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }

  public get id(): string | undefined {
    return this.body?.id;
  }
}

export const API_BASE = '/api/v4';
const CSRF_COOKIE = 'MMCSRF';

/** The CSRF value the server set at sign-in (readable cookie), sent back as `X-CSRF-Token` as the reference's web app does. */
export function readCookie(cookies: string, name: string): string | undefined {
  for (const part of cookies.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

function isAppError(value: unknown): value is AppErrorBody {
  return value !== null && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string' && typeof (value as { message?: unknown }).message === 'string';
}

export interface RequestOptions {
  readonly body?: unknown;
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
  /** A path outside /api/v4 (for `/hooks/{key}`). */
  readonly absolute?: boolean;
  readonly signal?: AbortSignal;
}

type Listener = (error: ApiError) => void;
const unauthorizedListeners = new Set<Listener>();

/** Called when any call answers 401 (the session ended), so the app can go back to sign-in. */
export function onUnauthorized(listener: Listener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/**
 * One call to the public REST API with the session cookie (sent by the browser), `X-Requested-With` and the
 * CSRF header. JSON in, JSON (or text) out; a non-2xx answer throws an ApiError carrying the server's AppError.
 */
export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const url = new URL((options.absolute ? '' : API_BASE) + path, window.location.origin);
  for (const [key, value] of Object.entries(options.query ?? {})) if (value !== undefined) url.searchParams.set(key, String(value));
  const headers: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };
  const csrf = readCookie(document.cookie, CSRF_COOKIE);
  if (csrf) headers['X-CSRF-Token'] = csrf;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(url, { method, headers, credentials: 'same-origin', ...(body !== undefined ? { body } : {}), ...(options.signal ? { signal: options.signal } : {}) });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, undefined);
  }
  const text = await response.text();
  let parsed: unknown = text;
  if ((response.headers.get('Content-Type') ?? '').includes('application/json') && text !== '') {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  if (!response.ok) {
    const error = new ApiError(response.status, isAppError(parsed) ? parsed : undefined);
    if (response.status === 401) for (const listener of unauthorizedListeners) listener(error);
    throw error;
  }
  return parsed as T;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
};

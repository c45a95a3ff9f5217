/**
 * The error taxonomy shared by every service. Domain code throws these; exactly one HTTP middleware
 * (in @switchyard/http-kit) turns them into Mattermost's AppError JSON. Match with `isAppError`, never
 * `instanceof`, because two copies of this package may be loaded.
 */
export const APP_ERROR_BRAND = 'SwitchyardAppError' as const;

export type ErrorKind =
  | 'validation'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'too_many_requests'
  | 'not_implemented'
  | 'internal'
  | 'upstream'
  | 'unavailable';

export const STATUS_BY_KIND: Readonly<Record<ErrorKind, number>> = {
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  too_many_requests: 429,
  not_implemented: 501,
  internal: 500,
  upstream: 502,
  unavailable: 503,
};

export interface AppErrorInit {
  readonly id: string;
  readonly message: string;
  readonly detailedError?: string;
  /** Overrides the status implied by the kind (the reference has a few quirks, e.g. 400 for an unknown hook). */
  readonly statusCode?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly cause?: unknown;
  /** detailed_error is shown even without EnableDeveloper (an extension whose wire promises the reason there). */
  readonly publicDetail?: boolean;
}

export class AppError extends Error {
  public readonly brand = APP_ERROR_BRAND;
  public readonly kind: ErrorKind;
  public readonly id: string;
  public readonly detailedError: string;
  public readonly statusCode: number;
  public readonly headers: Readonly<Record<string, string>>;
  public readonly publicDetail: boolean;

  public constructor(kind: ErrorKind, init: AppErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'AppError';
    this.kind = kind;
    this.id = init.id;
    this.detailedError = init.detailedError ?? '';
    this.statusCode = init.statusCode ?? STATUS_BY_KIND[kind];
    this.headers = init.headers ?? {};
    this.publicDetail = init.publicDetail ?? false;
  }
}

export function isAppError(value: unknown): value is AppError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { brand?: unknown }).brand === APP_ERROR_BRAND
  );
}

import { isAppError } from './app-error';
import { dependencyUnavailableError, isDependencyUnavailable } from './dependency-unavailable';

/** Mattermost's AppError JSON body. */
export interface WireError {
  id: string;
  message: string;
  detailed_error: string;
  request_id: string;
  status_code: number;
}

export interface ToWireOptions {
  readonly requestId: string;
  /** `ServiceSettings.EnableDeveloper`: whether detailed_error is shown. */
  readonly developer: boolean;
}

export function toWireError(thrown: unknown, options: ToWireOptions): WireError {
  // An unreachable store is a 503 wherever an error is answered (the error middleware, the webhook intake...).
  const error = !isAppError(thrown) && isDependencyUnavailable(thrown) ? dependencyUnavailableError(thrown) : thrown;
  if (isAppError(error)) {
    return {
      id: error.id,
      message: error.message,
      detailed_error: options.developer || error.publicDetail ? error.detailedError : exposeDetail(error.id, error.detailedError),
      request_id: options.requestId,
      status_code: error.statusCode,
    };
  }
  return {
    id: 'api.context.internal_error.app_error',
    message: 'An internal error occurred.',
    detailed_error: '',
    request_id: options.requestId,
    status_code: 500,
  };
}

/**
 * The reference empties detailed_error unless EnableDeveloper is on; the unknown-route 404 keeps its
 * text (it is written before that rule applies).
 */
function exposeDetail(id: string, detail: string): string {
  return id === 'api.context.404.app_error' ? detail : '';
}

/** Rebuilds a thrown-able error from a wire body received from another service. */
export function isWireError(value: unknown): value is WireError {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.id === 'string' && typeof v.message === 'string' && typeof v.status_code === 'number';
}

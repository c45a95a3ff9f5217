import { AppError, type AppErrorInit } from './app-error';

type Init = Omit<AppErrorInit, 'id' | 'message'> & { readonly message?: string };

function make(kind: ConstructorParameters<typeof AppError>[0]) {
  return (id: string, message?: string, extra: Omit<Init, 'message'> = {}): AppError =>
    new AppError(kind, { id, message: message ?? id, ...extra });
}

export const badRequest = make('validation');
export const unauthorized = make('unauthorized');
export const forbidden = make('forbidden');
export const notFound = make('not_found');
export const conflict = make('conflict');
export const payloadTooLarge = make('payload_too_large');
export const tooManyRequests = make('too_many_requests');
export const notImplemented = make('not_implemented');
export const internalError = make('internal');
export const upstreamError = make('upstream');
export const unavailable = make('unavailable');

/** The reference's standard errors, reused by every service. */
export const commonErrors = {
  sessionExpired: (detailed = ''): AppError =>
    unauthorized('api.context.session_expired.app_error', 'Invalid or expired session, please login again.', {
      detailedError: detailed,
    }),
  tokenProvided: (): AppError =>
    unauthorized(
      'api.context.token_provided.app_error',
      'Session is not OAuth but token was provided in the query string.',
    ),
  permissions: (userId: string, permission: string): AppError =>
    forbidden('api.context.permissions.app_error', 'You do not have the appropriate permissions.', {
      detailedError: `userId=${userId}, permission=${permission},`,
    }),
  invalidBodyParam: (name: string, detailed = ''): AppError =>
    badRequest('api.context.invalid_body_param.app_error', `Invalid or missing ${name} in request body.`, {
      detailedError: detailed,
    }),
  invalidUrlParam: (name: string): AppError =>
    badRequest('api.context.invalid_url_param.app_error', `Invalid or missing ${name} parameter in request URL.`),
  invalidParam: (name: string, detailed = ''): AppError =>
    badRequest('api.context.invalid_param.app_error', `Invalid ${name} parameter.`, { detailedError: detailed }),
  routeNotFound: (url: string): AppError =>
    notFound('api.context.404.app_error', 'Sorry, we could not find the page.', {
      detailedError: `There doesn't appear to be an api call for the url='${url}'.  Typo? are you missing a team_id or user_id as part of the url?`,
    }),
  bodyTooLarge: (): AppError =>
    payloadTooLarge('api.context.request_body_too_large.app_error', 'The request body is too large.'),
  rateLimited: (headers: Record<string, string>): AppError =>
    tooManyRequests('api.context.rate_limit.app_error', 'Too many requests, please slow down.', { headers }),
  serverBusy: (): AppError => unavailable('api.context.server_busy.app_error', 'Server is busy, non-critical services are temporarily unavailable.'),
  /** More event long-polls (`GET /api/v4/events`) than a gateway or a realtime replica holds at once. */
  tooManyWaiting: (): AppError => unavailable('api.events.too_many_waiting.app_error', 'Too many event requests are waiting; try again.'),
};

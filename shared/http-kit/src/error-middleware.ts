import type { NextFunction, Request, Response } from 'express';
import { dependencyUnavailableError, isAppError, isDependencyUnavailable, toWireError } from '@switchyard/errors';
import type { Logger } from '@switchyard/logger';
import { loggablePath } from './loggable-path';
import { sendJson } from './send-json';

/**
 * The one place an error becomes an HTTP answer: Mattermost's AppError JSON. 4xx are logged at info,
 * deliberate 5xx AppErrors at warn, unknown errors as 500 with the request id (their message never reaches the client).
 */
export function errorMiddleware(logger: Logger, developerMode: () => boolean) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const requestId = req.requestId ?? '';
    const normalised = normaliseFrameworkError(error);
    const wire = toWireError(normalised, { requestId, developer: developerMode() });
    if (wire.status_code >= 500 && !isAppError(normalised)) {
      logger.error('request failed', { request_id: requestId, method: req.method, path: loggablePath(req.path), error: normalised });
    } else if (wire.status_code >= 500) {
      // Deliberate 5xx answers (501 feature disabled, 502/503 upstream, the reference's own 500 ids): known cases.
      logger.warn('request refused', { request_id: requestId, method: req.method, path: loggablePath(req.path), status: wire.status_code, error_id: wire.id });
    } else {
      logger.info('request refused', { request_id: requestId, method: req.method, path: loggablePath(req.path), status: wire.status_code, error_id: wire.id });
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    if (isAppError(normalised)) for (const [k, v] of Object.entries(normalised.headers)) res.setHeader(k, v);
    sendJson(res, wire.status_code, wire);
  };
}

/**
 * body-parser style errors (`type`/`status` fields) become AppErrors instead of 500s; so does an unreachable
 * store (MongoDB-wire down: the driver's selection or network errors): 503 `api.context.server_busy.app_error`,
 * the reference's "try again later", never a 500.
 */
function normaliseFrameworkError(error: unknown): unknown {
  if (isAppError(error)) return error;
  if (isDependencyUnavailable(error)) return dependencyUnavailableError(error);
  const e = error as { status?: unknown; type?: unknown; message?: unknown } | undefined;
  if (e && typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
    return {
      brand: 'SwitchyardAppError',
      id: e.status === 413 ? 'api.context.request_body_too_large.app_error' : 'api.context.invalid_body_param.app_error',
      message: typeof e.message === 'string' ? e.message : 'Bad request',
      detailedError: '',
      statusCode: e.status,
      headers: {},
    };
  }
  return error;
}

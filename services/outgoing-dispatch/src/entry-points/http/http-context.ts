import type { Request, RequestHandler } from 'express';
import { requestLogger, requireIdentity } from '@switchyard/http-kit';
import type { Actor } from '../../domain/hooks/hook-access';
import type { Deps } from '../../domain/ports';

/** The request helpers every service's routes use (one implementation, in http-kit). */
export { idParam, userIdParam, queryValue, queryBool, paging } from '@switchyard/http-kit';

export interface HttpContext {
  readonly deps: Deps;
  /** rawBody (limit = MaximumPayloadSizeBytes, read per request) + jsonBody. */
  readonly withBody: readonly RequestHandler[];
}

/** The deps for a use case that logs while it handles `req`: its lines name the request (ADR 0042). */
export function requestDeps(deps: Deps, req: Request): Deps {
  return { ...deps, logger: requestLogger(deps.logger, req) };
}

/** The gateway-signed caller, or 401 session_expired. */
export function actorOf(req: Request): Actor {
  const identity = requireIdentity(req);
  return { userId: identity.userId, roles: identity.roles, isBot: identity.isBot };
}

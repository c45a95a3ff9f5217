import type { Request, RequestHandler } from 'express';
import { requireIdentity } from '@switchyard/http-kit';
import type { Actor } from '../../domain/hooks/hook-access';
import type { Deps } from '../../domain/ports';

/** The request helpers every service's routes use (one implementation, in http-kit). */
export { idParam, userIdParam, queryValue, queryBool, paging } from '@switchyard/http-kit';

export interface HttpContext {
  readonly deps: Deps;
  /** rawBody (limit = MaximumPayloadSizeBytes, read per request) + jsonBody. */
  readonly withBody: readonly RequestHandler[];
}

/** The gateway-signed caller, or 401 session_expired. */
export function actorOf(req: Request): Actor {
  const identity = requireIdentity(req);
  return { userId: identity.userId, roles: identity.roles, isBot: identity.isBot };
}

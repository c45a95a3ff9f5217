import type { Request, RequestHandler, Response } from 'express';
import { requireIdentity, type Keys } from '@switchyard/http-kit';
import type { Actor } from '../../domain/authorization';
import type { Deps } from '../../domain/ports';
import { AffectedUsersEvents } from '../../adapters/events/affected-users';

/** The request helpers every service's routes use (one implementation, in http-kit). */
export { idParam, userIdParam, queryValue, queryBool, paging } from '@switchyard/http-kit';

/** What every route module receives from the composition root. */
export interface HttpContext {
  readonly deps: Deps;
  /** rawBody (limit = MaximumPayloadSizeBytes, read per request) + jsonBody. */
  readonly withBody: readonly RequestHandler[];
  readonly internalSecret: Keys;
}

/**
 * The deps a handler hands its use cases, one per request: users.events they publish name their user in
 * this answer's header for the gateway (AffectedUsersEvents). Explicit instead of an AsyncLocalStorage (ADR 0042).
 */
export function requestDeps(ctx: HttpContext, res: Response): Deps {
  return { ...ctx.deps, events: new AffectedUsersEvents(ctx.deps.events, res) };
}

/** The gateway-signed caller, or 401 session_expired. */
export function actorOf(req: Request): Actor {
  const identity = requireIdentity(req);
  return {
    userId: identity.userId,
    sessionId: identity.sessionId,
    roles: identity.roles,
    isBot: identity.isBot,
    sessionType: identity.sessionType,
    ...(identity.tokenId !== undefined ? { tokenId: identity.tokenId } : {}),
  };
}

export function optionalActorOf(req: Request): Actor | undefined {
  return req.identity ? actorOf(req) : undefined;
}

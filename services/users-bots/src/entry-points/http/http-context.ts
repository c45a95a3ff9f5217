import type { Request, RequestHandler } from 'express';
import { requireIdentity, type Keys } from '@switchyard/http-kit';
import { queryFlag, requireIdParam } from '@switchyard/validation';
import type { Actor } from '../../domain/authorization';
import type { Deps } from '../../domain/ports';

/** What every route module receives from the composition root. */
export interface HttpContext {
  readonly deps: Deps;
  /** rawBody (limit = MaximumPayloadSizeBytes, read per request) + jsonBody. */
  readonly withBody: readonly RequestHandler[];
  readonly internalSecret: Keys;
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

/** A `user_id`-style URL param; `me` is the caller. Invalid ids are 400 before any permission check. */
export function userIdParam(req: Request, name = 'user_id'): string {
  const value = req.params[name];
  if (value === 'me') return actorOf(req).userId;
  return requireIdParam(value, name);
}

export function idParam(req: Request, name: string): string {
  return requireIdParam(req.params[name], name);
}

/** A single string query value (repeated keys: the first). */
export function queryValue(req: Request, name: string): string | undefined {
  const value = (req.query as Record<string, unknown>)[name];
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return undefined;
}

export function queryBool(req: Request, name: string): boolean {
  const value = queryValue(req, name);
  return value !== undefined && queryFlag({ [name]: value }, name);
}

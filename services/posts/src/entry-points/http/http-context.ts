import type { Request, RequestHandler } from 'express';
import { requireIdentity, type Keys } from '@switchyard/http-kit';
import { parsePaging, queryFlag, requireIdParam, type Paging } from '@switchyard/validation';
import type { Actor } from '../../domain/actor';
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
  return { userId: identity.userId, roles: identity.roles, isBot: identity.isBot, sessionId: identity.sessionId };
}

/** An id URL param; invalid ids are 400 invalid_url_param before any permission check. */
export function idParam(req: Request, name: string): string {
  return requireIdParam(req.params[name], name);
}

/** A `user_id` URL param where `me` is the caller. */
export function userIdParam(req: Request, name = 'user_id'): string {
  if (req.params[name] === 'me') return actorOf(req).userId;
  return idParam(req, name);
}

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

export function paging(req: Request): Paging {
  return parsePaging({ page: queryValue(req, 'page'), per_page: queryValue(req, 'per_page'), pageSize: queryValue(req, 'pageSize') });
}

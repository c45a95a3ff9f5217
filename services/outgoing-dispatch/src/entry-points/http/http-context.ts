import type { Request, RequestHandler } from 'express';
import { requireIdentity } from '@switchyard/http-kit';
import { requireIdParam } from '@switchyard/validation';
import type { Actor } from '../../domain/hooks/hook-access';
import type { Deps } from '../../domain/ports';

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

export function idParam(req: Request, name: string): string {
  return requireIdParam(req.params[name], name);
}

export function queryValue(req: Request, name: string): string | undefined {
  const value = (req.query as Record<string, unknown>)[name];
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return undefined;
}

import type { Request, RequestHandler } from 'express';
import { requireIdentity } from '@switchyard/http-kit';
import type { Logger } from '@switchyard/logger';
import { queryFlag, requireIdParam } from '@switchyard/validation';
import type { Actor, Deps } from '../../domain/ports';

/** What every route module receives from the composition root. */
export interface HttpContext {
  readonly deps: Deps;
  /** rawBody (limit = MaximumPayloadSizeBytes, read per request) + jsonBody. */
  readonly withBody: readonly RequestHandler[];
  readonly logger: Logger;
  /** Called after a hook changed or was deleted (local caches). */
  readonly onHookChanged: (hookId: string) => void;
}

export function actorOf(req: Request): Actor {
  const identity = requireIdentity(req);
  return { userId: identity.userId, roles: identity.roles };
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

export function queryBool(req: Request, name: string): boolean {
  const value = queryValue(req, name);
  return value !== undefined && queryFlag({ [name]: value }, name);
}

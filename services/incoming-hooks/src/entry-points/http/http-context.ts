import type { Request, RequestHandler } from 'express';
import { requireIdentity } from '@switchyard/http-kit';
import type { Logger } from '@switchyard/logger';
import type { Actor, Deps } from '../../domain/ports';

/** The request helpers every service's routes use (one implementation, in http-kit). */
export { idParam, userIdParam, queryValue, queryBool, paging } from '@switchyard/http-kit';

/** What every route module receives from the composition root. */
export interface HttpContext {
  readonly deps: Deps;
  /** rawBody (limit = MaximumPayloadSizeBytes, read per request) + jsonBody. */
  readonly withBody: readonly RequestHandler[];
  readonly logger: Logger;
  /** Called after a hook changed or was deleted (local caches). */
  readonly onHookChanged: (hookId: string) => void;
  /** Where file parts of multipart hook requests wait while the hook is checked (default: the OS temp dir's). */
  readonly spoolDir?: string;
}

export function actorOf(req: Request): Actor {
  const identity = requireIdentity(req);
  return { userId: identity.userId, roles: identity.roles };
}

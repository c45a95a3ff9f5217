import type { NextFunction, Request, Response } from 'express';
import { commonErrors } from '@switchyard/errors';
import { verifyIdentity, type Identity } from './identity';
import type { Keys } from './key-set';

/**
 * Attaches the gateway-signed identity, if any and valid for this very request (its method and
 * `originalUrl`, as the gateway forwarded them), to `req.identity`. Forged, stale or misbound headers are
 * ignored: the request is then anonymous.
 */
export function identityMiddleware(keys: () => Keys) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const identity = verifyIdentity({ method: req.method, target: req.originalUrl, headers: req.headers }, keys());
    if (identity) req.identity = identity;
    next();
  };
}

/** The authenticated identity, or 401 session_expired as on a session-required route. */
export function requireIdentity(req: Request): Identity {
  if (!req.identity) throw commonErrors.sessionExpired();
  return req.identity;
}

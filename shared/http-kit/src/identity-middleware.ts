import type { NextFunction, Request, Response } from 'express';
import { commonErrors } from '@switchyard/errors';
import { verifyIdentity, type Identity } from './identity';
import type { Keys } from './key-set';

/** Attaches the gateway-signed identity, if any and valid, to `req.identity`. Forged headers are ignored. */
export function identityMiddleware(keys: () => Keys) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const identity = verifyIdentity(req.headers, keys());
    if (identity) req.identity = identity;
    next();
  };
}

/** The authenticated identity, or 401 session_expired as on a session-required route. */
export function requireIdentity(req: Request): Identity {
  if (!req.identity) throw commonErrors.sessionExpired();
  return req.identity;
}

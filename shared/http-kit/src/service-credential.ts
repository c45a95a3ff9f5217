import { createHmac } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { commonErrors, forbidden } from '@switchyard/errors';
import { matchesAnyKey, signingKey, type Keys } from './key-set';

/**
 * A service identity: how one service proves to another that the call is its own, not a user's. It is
 * the only credential internal routes (`/internal/v1/*`) accept, and the gateway never puts one on a
 * request it forwards for a user (it drops every client `x-switchyard-*` header and signs users with
 * the separate identity headers, which internal routes refuse).
 *
 * `x-switchyard-service: v1.<caller>.<issued at, ms>.<base64url HMAC-SHA256(INTERNAL_SECRET,
 * "switchyard-service-v1\n<caller>\n<issued at>\n<METHOD>\n<path and query>")>`: bound to the calling
 * service's name, the method and the exact request target, and refused when more than
 * SERVICE_CREDENTIAL_MAX_AGE_MS old (or that far in the future), so a captured header opens nothing else.
 */
export const SERVICE_CREDENTIAL_HEADER = 'x-switchyard-service';
export const SERVICE_CREDENTIAL_MAX_AGE_MS = 15_000;
const VERSION = 'v1';
const CONTEXT = 'switchyard-service-v1';
const SERVICE_NAME = /^[a-z][a-z0-9-]{0,62}$/;

function mac(secret: string, caller: string, issuedAt: string, method: string, target: string): string {
  return createHmac('sha256', secret).update(`${CONTEXT}\n${caller}\n${issuedAt}\n${method.toUpperCase()}\n${target}`).digest('base64url');
}

/** What a service holds to sign its own calls to other services. */
export interface ServiceCredential {
  readonly service: string;
  /** Headers for one request: `method` and `target` (path and query) exactly as they will be sent. */
  headers(method: string, target: string, now?: number): Record<string, string>;
}

/** Signs with the primary key of `keys`. */
export function serviceCredential(service: string, keys: Keys): ServiceCredential {
  if (!SERVICE_NAME.test(service)) throw new Error(`invalid service name ${JSON.stringify(service)}`);
  const secret = signingKey(keys);
  return {
    service,
    headers: (method, target, now = Date.now()) => {
      const issuedAt = String(Math.floor(now));
      return { [SERVICE_CREDENTIAL_HEADER]: `${VERSION}.${service}.${issuedAt}.${mac(secret, service, issuedAt, method, target)}` };
    },
  };
}

export interface SignedRequest {
  readonly method: string;
  /** Path and query as received (express: `originalUrl`). */
  readonly target: string;
  readonly headers: IncomingHttpHeaders;
}

/** The calling service's name when the request carries a fresh credential for its method and target, made with any key of `keys`. */
export function verifyServiceCredential(request: SignedRequest, keys: Keys, now = Date.now()): string | undefined {
  const value = request.headers[SERVICE_CREDENTIAL_HEADER];
  if (typeof value !== 'string') return undefined;
  const parts = value.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION) return undefined;
  const [, caller = '', issuedAt = '', given = ''] = parts;
  if (!SERVICE_NAME.test(caller) || !/^\d{1,15}$/.test(issuedAt)) return undefined;
  if (Math.abs(now - Number(issuedAt)) > SERVICE_CREDENTIAL_MAX_AGE_MS) return undefined;
  return matchesAnyKey(keys, given, (key) => mac(key, caller, issuedAt, request.method, request.target)) ? caller : undefined;
}

/**
 * Guard of one internal route: only the named services may call it. No (or a forged, stale or misbound)
 * service credential is 401, whatever user identity the request carries; a valid one from a service not
 * in `callers` is 403.
 */
export function serviceOnly(keys: Keys | (() => Keys), callers: readonly string[]) {
  const allowed = new Set(callers);
  return (req: Request, _res: Response, next: NextFunction): void => {
    const caller = verifyServiceCredential({ method: req.method, target: req.originalUrl, headers: req.headers }, typeof keys === 'function' ? keys() : keys);
    if (caller === undefined) {
      next(commonErrors.sessionExpired('internal route: no valid service credential'));
      return;
    }
    if (!allowed.has(caller)) {
      next(forbidden('api.context.permissions.app_error', 'You do not have the appropriate permissions.', { detailedError: `service=${caller} may not call this internal route` }));
      return;
    }
    next();
  };
}

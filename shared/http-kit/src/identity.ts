import { createHmac } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { matchesAnyKey, signingKey, type Keys } from './key-set';

/** Who the gateway authenticated. Services trust it only with a valid HMAC from the shared secret. */
export interface Identity {
  readonly userId: string;
  readonly sessionId: string;
  readonly roles: string;
  readonly isBot: boolean;
  /** `session` (login), `UserAccessToken` (PAT or bot token). */
  readonly sessionType: 'session' | 'UserAccessToken';
  readonly tokenId?: string;
  /**
   * When the session ends (ms; absent or 0 = never). Set on the WebSocket upgrade, where realtime closes the
   * socket then; inside the signed payload so no caller or path between gateway and service can extend it.
   */
  readonly sessionExpiresAt?: number;
  /** When the gateway signed it (ms); old signatures are refused. */
  readonly issuedAt: number;
}

/** The one request a signed identity is for: its method and its exact target (path and query, as sent). */
export interface IdentityTarget {
  readonly method: string;
  readonly target: string;
}

export const IDENTITY_HEADER = 'x-switchyard-identity';
export const IDENTITY_SIGNATURE_HEADER = 'x-switchyard-identity-signature';
/** How long a signed identity is accepted (either way, for clock skew): one forwarded request, not a session. */
export const IDENTITY_MAX_AGE_MS = 15_000;
const CONTEXT = 'switchyard-identity-v2';

/**
 * HMAC-SHA256 over a context string, the method, the exact target and the payload: the signature opens
 * this one request only (another path, query or method is refused), as the service credential's does.
 */
function sign(payload: string, request: IdentityTarget, secret: string): string {
  return createHmac('sha256', secret).update(`${CONTEXT}\n${request.method.toUpperCase()}\n${request.target}\n${payload}`).digest('base64url');
}

/**
 * The identity headers the gateway adds to one forwarded request (`request`: its method and target exactly
 * as they will be sent). Signed with the primary key of `keys`.
 */
export function signIdentity(identity: Omit<Identity, 'issuedAt'>, keys: Keys, request: IdentityTarget, now = Date.now()): Record<string, string> {
  const payload = Buffer.from(JSON.stringify({ ...identity, issuedAt: now })).toString('base64url');
  return { [IDENTITY_HEADER]: payload, [IDENTITY_SIGNATURE_HEADER]: sign(payload, request, signingKey(keys)) };
}

/**
 * The identity, when the request carries one signed (with any key of `keys`) for its own method and target
 * and issued within IDENTITY_MAX_AGE_MS; otherwise undefined. `target` is the path and query as received
 * (express: `originalUrl`; a raw upgrade request: `url`).
 */
export function verifyIdentity(request: IdentityTarget & { readonly headers: IncomingHttpHeaders }, keys: Keys, now = Date.now()): Identity | undefined {
  const payload = request.headers[IDENTITY_HEADER];
  const signature = request.headers[IDENTITY_SIGNATURE_HEADER];
  if (typeof payload !== 'string' || typeof signature !== 'string') return undefined;
  if (!matchesAnyKey(keys, signature, (key) => sign(payload, request, key))) return undefined;
  try {
    const identity = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Identity;
    if (typeof identity.issuedAt !== 'number' || Math.abs(now - identity.issuedAt) > IDENTITY_MAX_AGE_MS) return undefined;
    return identity;
  } catch {
    return undefined;
  }
}

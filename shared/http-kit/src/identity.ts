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
  /** When the gateway signed it (ms); old signatures are refused. */
  readonly issuedAt: number;
}

export const IDENTITY_HEADER = 'x-switchyard-identity';
export const IDENTITY_SIGNATURE_HEADER = 'x-switchyard-identity-signature';
const MAX_AGE_MS = 5 * 60_000;

function sign(payload: string, secret: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url');
}

/** Signs with the primary key of `keys`. */
export function signIdentity(identity: Omit<Identity, 'issuedAt'>, keys: Keys, now = Date.now()): Record<string, string> {
  const payload = Buffer.from(JSON.stringify({ ...identity, issuedAt: now })).toString('base64url');
  return { [IDENTITY_HEADER]: payload, [IDENTITY_SIGNATURE_HEADER]: sign(payload, signingKey(keys)) };
}

/** Returns the identity when the headers carry a fresh one, signed with any key of `keys`; otherwise undefined. */
export function verifyIdentity(headers: IncomingHttpHeaders, keys: Keys, now = Date.now()): Identity | undefined {
  const payload = headers[IDENTITY_HEADER];
  const signature = headers[IDENTITY_SIGNATURE_HEADER];
  if (typeof payload !== 'string' || typeof signature !== 'string') return undefined;
  if (!matchesAnyKey(keys, signature, (key) => sign(payload, key))) return undefined;
  try {
    const identity = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Identity;
    if (typeof identity.issuedAt !== 'number' || Math.abs(now - identity.issuedAt) > MAX_AGE_MS) return undefined;
    return identity;
  } catch {
    return undefined;
  }
}

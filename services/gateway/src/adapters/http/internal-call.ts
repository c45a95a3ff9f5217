import { createHmac } from 'node:crypto';

/**
 * Service-to-service calls without a user identity (resolving a token, reading the config) prove the
 * caller holds INTERNAL_SECRET with `x-switchyard-internal: base64url(HMAC-SHA256(secret,
 * "switchyard-internal-call-v1"))`, the scheme users-bots checks. Clients cannot send it through the
 * gateway: every incoming `x-switchyard-*` header is stripped.
 */
export const INTERNAL_CALL_HEADER = 'x-switchyard-internal';

export function internalCallHeaders(secret: string): Record<string, string> {
  return { [INTERNAL_CALL_HEADER]: createHmac('sha256', secret).update('switchyard-internal-call-v1').digest('base64url') };
}

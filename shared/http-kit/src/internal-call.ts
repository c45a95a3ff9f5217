import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * Service-to-service calls without a user identity (the gateway resolving a token, another service
 * reading config) carry `x-switchyard-internal: base64url(HMAC-SHA256(INTERNAL_SECRET, "switchyard-internal-call-v1"))`.
 * A pod reached directly without the shared secret cannot produce it.
 */
export const INTERNAL_CALL_HEADER = 'x-switchyard-internal';
const CONTEXT = 'switchyard-internal-call-v1';

function tokenFor(secret: string): string {
  return createHmac('sha256', secret).update(CONTEXT).digest('base64url');
}

/** Headers to add to an internal request. */
export function internalCallHeaders(secret: string): Record<string, string> {
  return { [INTERNAL_CALL_HEADER]: tokenFor(secret) };
}

/** Whether the request carries the internal-call header for this secret (constant-time comparison). */
export function isInternalCall(req: { headers: IncomingHttpHeaders }, secret: string): boolean {
  const given = req.headers[INTERNAL_CALL_HEADER];
  if (typeof given !== 'string') return false;
  const expected = Buffer.from(tokenFor(secret));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

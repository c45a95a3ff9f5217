import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SignatureScheme } from './templates';
import { TransformErrors } from './transform-errors';

type Headers = Readonly<Record<string, string | readonly string[] | undefined>>;

const first = (headers: Headers, name: string): string | undefined => {
  const value = headers[name];
  return typeof value === 'string' ? value : value?.[0];
};

/** Equal in constant time: both sides are hashed first, so neither the content nor the length is timed. */
function same(given: string, expected: string): boolean {
  const digest = (s: string): Buffer => createHmac('sha256', 'switchyard-compare').update(s, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

const hexHmac = (secret: string, raw: Buffer): string => createHmac('sha256', secret).update(raw).digest('hex');

/**
 * The vendor's own check, over the raw body bytes as received: GitHub `X-Hub-Signature-256: sha256=<hex HMAC-SHA256>`,
 * GitLab `X-Gitlab-Token: <secret>`, Sentry `Sentry-Hook-Signature: <hex HMAC-SHA256>`. Wrong or missing → 401.
 * `signed`: the raw bytes, or their hex HMAC-SHA256 with `secret` made as they streamed.
 */
export function verifySignature(scheme: SignatureScheme, secret: string, headers: Headers, signed: Buffer | string): void {
  // A string is the HMAC already made as the body streamed (a multipart body, never held whole).
  const hmac = (): string => (typeof signed === 'string' ? signed : hexHmac(secret, signed));
  const [name, expected] =
    scheme === 'github' ? ['x-hub-signature-256', `sha256=${hmac()}`]
    : scheme === 'gitlab' ? ['x-gitlab-token', secret]
    : ['sentry-hook-signature', hmac()];
  const given = first(headers, name);
  if (given === undefined || given === '') throw TransformErrors.signature(`the ${name} header is missing`);
  // hex digests are compared case-insensitively; GitLab's token as given.
  if (!same(scheme === 'gitlab' ? given.trim() : given.trim().toLowerCase(), expected)) {
    throw TransformErrors.signature(`the ${name} header does not match this hook's secret`);
  }
}

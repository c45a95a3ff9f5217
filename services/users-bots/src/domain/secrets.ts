import { createHash, randomBytes } from 'node:crypto';
import { newId } from '@switchyard/ids';

/** Tokens (sessions, PATs, CSRF) are 26-character ids, as the reference's. */
export function newToken(): string {
  return newId();
}

/** How a bearer token is stored and looked up: sha256, hex. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** `whsec_` + base64 of 32 random bytes (Standard Webhooks secret format). */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The reference's random-string alphabet (NewRandomString: base32, lower-case). */
const RANDOM_STRING_ALPHABET = 'ybndrfg8ejkmcpqxot1uwisza345h769';

/** `length` random characters of the reference's alphabet (FileSettings.PublicLinkSalt: 32). */
export function newRandomString(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += RANDOM_STRING_ALPHABET[byte & 31];
  return out;
}

import { createHash, createHmac, randomBytes } from 'node:crypto';
import { encodeBase32 } from '@switchyard/ids';

/** A 26-char id derived from the parts (the same parts always give the same id). */
export function derivedId(...parts: readonly string[]): string {
  return encodeBase32(createHash('sha256').update(parts.join('\u0000')).digest().subarray(0, 16));
}

/** A new Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
}

/**
 * Standard Webhooks headers: `webhook-signature` is `v1,<base64 HMAC-SHA256 over "<id>.<timestamp>.<body>">`,
 * one per valid secret, space-separated.
 */
export function signatureHeaders(id: string, timestampSeconds: number, body: string, secrets: readonly string[]): Record<string, string> {
  const signed = `${id}.${timestampSeconds}.${body}`;
  const signatures = secrets
    .filter((s) => s !== '')
    .map((s) => `v1,${createHmac('sha256', secretKey(s)).update(signed).digest('base64')}`);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    ...(signatures.length > 0 ? { 'webhook-signature': signatures.join(' ') } : {}),
  };
}

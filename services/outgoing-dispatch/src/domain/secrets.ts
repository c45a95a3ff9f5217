import { createHash, createHmac, randomBytes } from 'node:crypto';
import { encodeBase32 } from '@switchyard/ids';
import { ed25519Sign } from './signing/ed25519';

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

/** One way a request is signed: an HMAC secret (`v1`) or an Ed25519 private key (`v1a`). */
export type Signer = { readonly kind: 'hmac'; readonly secret: string } | { readonly kind: 'ed25519'; readonly key: string };

/** One signature over `"<prefix><body>"`; the HMAC takes the two parts as they are (no 1-2 KB joined copy per request). */
function signatureOf(signer: Signer, prefix: string, body: string): string {
  if (signer.kind === 'ed25519') return `v1a,${ed25519Sign(signer.key, prefix + body)}`;
  return `v1,${createHmac('sha256', secretKey(signer.secret)).update(prefix).update(body).digest('base64')}`;
}

/**
 * Standard Webhooks headers: `webhook-signature` is one signature over `"<id>.<timestamp>.<body>"` per
 * signer, space-separated: `v1,<base64 HMAC-SHA256>` or `v1a,<base64 Ed25519>`.
 */
export function signedHeaders(id: string, timestampSeconds: number, body: string, signers: readonly Signer[]): Record<string, string> {
  const prefix = `${id}.${timestampSeconds}.`;
  const signatures = signers.filter((s) => (s.kind === 'hmac' ? s.secret : s.key) !== '').map((s) => signatureOf(s, prefix, body));
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    ...(signatures.length > 0 ? { 'webhook-signature': signatures.join(' ') } : {}),
  };
}

/** signedHeaders with HMAC secrets only (`v1`). */
export function signatureHeaders(id: string, timestampSeconds: number, body: string, secrets: readonly string[]): Record<string, string> {
  return signedHeaders(
    id,
    timestampSeconds,
    body,
    secrets.map((secret) => ({ kind: 'hmac', secret })),
  );
}

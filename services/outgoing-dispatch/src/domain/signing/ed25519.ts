import { createHash, createPrivateKey, createPublicKey, hkdfSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/** `whsk_` + base64 of a 32-byte Ed25519 seed: a hook's private signing key (stored, never returned). */
export const PRIVATE_KEY_PREFIX = 'whsk_';
/** `whpk_` + base64 of the 32-byte Ed25519 public key (the wire's `signing_public_key`). */
export const PUBLIC_KEY_PREFIX = 'whpk_';

// PKCS#8 DER of an Ed25519 private key is this fixed prefix followed by the 32-byte seed (RFC 8410).
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const MAX_CACHED_KEYS = 4096;

/** Parsed keys by their stored form: parsing a key costs more than signing with it. */
const cache = new Map<string, { readonly privateKey: KeyObject; readonly publicKey: string }>();

function seedOf(key: string): Buffer {
  const seed = Buffer.from(key.startsWith(PRIVATE_KEY_PREFIX) ? key.slice(PRIVATE_KEY_PREFIX.length) : key, 'base64');
  if (seed.length !== 32) throw new Error('an Ed25519 signing key is 32 bytes');
  return seed;
}

function parsed(key: string): { readonly privateKey: KeyObject; readonly publicKey: string } {
  const known = cache.get(key);
  if (known) return known;
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seedOf(key)]), format: 'der', type: 'pkcs8' });
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  const publicKey = `${PUBLIC_KEY_PREFIX}${Buffer.from(String(jwk.x), 'base64url').toString('base64')}`;
  if (cache.size >= MAX_CACHED_KEYS) cache.delete(cache.keys().next().value as string);
  const entry = { privateKey, publicKey };
  cache.set(key, entry);
  return entry;
}

/** A new private key: `whsk_` + base64 of 32 random bytes. */
export function newEd25519Key(): string {
  return `${PRIVATE_KEY_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** The public key (`whpk_…`) of a private key. */
export function ed25519PublicKey(key: string): string {
  return parsed(key).publicKey;
}

/** Base64 Ed25519 signature of the message. */
export function ed25519Sign(key: string, message: string): string {
  return sign(null, Buffer.from(message), parsed(key).privateKey).toString('base64');
}

/**
 * The action-callback key pair, derived from `IntegrationSigningSecret` (HKDF-SHA256 with its own label),
 * so it rotates with that secret and needs no second stored secret (ADR "Ed25519 signing").
 */
export function derivedEd25519Key(secret: string): string {
  const material = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  const salt = createHash('sha256').update('switchyard').digest();
  const seed = Buffer.from(hkdfSync('sha256', material, salt, 'switchyard ed25519 action callback signing key', 32));
  return `${PRIVATE_KEY_PREFIX}${seed.toString('base64')}`;
}

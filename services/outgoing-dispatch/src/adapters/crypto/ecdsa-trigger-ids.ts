import { createECDH, createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { badRequest } from '@switchyard/errors';
import { acceptedKeys, signingKey, type Keys } from '@switchyard/http-kit';
import type { TriggerIds } from '../../domain/ports';

function derivePrivateKey(secret: string): KeyObject {
  const d = createHash('sha256').update(`switchyard-trigger-id-v1\u0000${secret}`).digest();
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(d);
  const point = ecdh.getPublicKey();
  const jwk = { kty: 'EC', crv: 'P-256', d: d.toString('base64url'), x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') };
  return createPrivateKey({ key: jwk, format: 'jwk' });
}

function verifiedBy(key: KeyObject, inner: string, signature: string): boolean {
  try {
    return verify('sha256', Buffer.from(inner), { key, dsaEncoding: 'der' }, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

const decodeError = (kind: string, message: string) => badRequest(`interactive_message.decode_trigger_id.${kind}`, message);

/**
 * The reference's trigger ids: base64(`<clientTriggerId>:<userId>:<millis>:` + base64(ASN.1 ECDSA-P256
 * signature over SHA-256 of that inner string)). The key is derived from the service's internal secret,
 * so every instance signs and verifies alike; during a rotation it signs with the primary and accepts either key.
 */
export class EcdsaTriggerIds implements TriggerIds {
  private readonly privateKey: KeyObject;
  private readonly publicKeys: readonly KeyObject[];

  public constructor(keys: Keys) {
    this.privateKey = derivePrivateKey(signingKey(keys));
    this.publicKeys = acceptedKeys(keys).map((secret) => createPublicKey(derivePrivateKey(secret)));
  }

  public issue(clientTriggerId: string, userId: string, now: number): string {
    const inner = `${clientTriggerId}:${userId}:${now}:`;
    const signature = sign('sha256', Buffer.from(inner), { key: this.privateKey, dsaEncoding: 'der' });
    return Buffer.from(inner + signature.toString('base64')).toString('base64');
  }

  public verify(triggerId: string, now: number, maxAgeMs: number): { clientTriggerId: string; userId: string } {
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(triggerId)) throw decodeError('base64_decode_failed', 'Failed to decode base64 for trigger ID for interactive dialog.');
    const decoded = Buffer.from(triggerId, 'base64').toString('utf8');
    const parts = decoded.split(':');
    if (parts.length !== 4) throw decodeError('missing_data', 'Trigger ID missing required data for interactive dialog.');
    const [clientTriggerId = '', userId = '', millis = '', signature = ''] = parts;
    const timestamp = Number(millis);
    if (!Number.isFinite(timestamp) || now - timestamp > maxAgeMs) throw decodeError('expired', `Trigger ID for interactive dialog is expired. Maximum TTL is ${Math.round(maxAgeMs / 1000)}s.`);
    const inner = `${clientTriggerId}:${userId}:${millis}:`;
    const valid = this.publicKeys.some((key) => verifiedBy(key, inner, signature));
    if (!valid) throw decodeError('verify_signature_failed', 'Signature verification failed for trigger ID for interactive dialog.');
    return { clientTriggerId, userId };
  }
}

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPublicKey, verify } from 'node:crypto';
import { isAppError } from '@switchyard/errors';
import { EcdsaTriggerIds } from './ecdsa-trigger-ids';

const idOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (error) {
    return isAppError(error) ? error.id : 'other';
  }
  return undefined;
};

test('when a trigger id is issued, then it decodes to 4 parts and verifies on another instance with the same secret', () => {
  const now = 1_700_000_000_000;
  const id = new EcdsaTriggerIds('shared-secret').issue('client0000000000000000000', 'user00000000000000000000000', now);
  const parts = Buffer.from(id, 'base64').toString('utf8').split(':');
  assert.equal(parts.length, 4);
  assert.deepEqual(parts.slice(0, 3), ['client0000000000000000000', 'user00000000000000000000000', String(now)]);
  assert.deepEqual(new EcdsaTriggerIds('shared-secret').verify(id, now + 1000, 30_000), { clientTriggerId: 'client0000000000000000000', userId: 'user00000000000000000000000' });
  assert.equal(idOf(() => new EcdsaTriggerIds('shared-secret').verify(id, now + 30_001, 30_000)), 'interactive_message.decode_trigger_id.expired');
  assert.equal(idOf(() => new EcdsaTriggerIds('other-secret').verify(id, now, 30_000)), 'interactive_message.decode_trigger_id.verify_signature_failed');
});

test('when the signature is checked by hand, then it is ASN.1 ECDSA P-256 over SHA-256 of the inner string', () => {
  const ids = new EcdsaTriggerIds('s');
  const id = ids.issue('c', 'u', 5);
  const decoded = Buffer.from(id, 'base64').toString('utf8');
  const signature = Buffer.from(decoded.split(':')[3] ?? '', 'base64');
  assert.equal(signature[0], 0x30, 'DER sequence');
  const key = (ids as unknown as { publicKeys: ReturnType<typeof createPublicKey>[] }).publicKeys[0];
  assert.ok(key);
  assert.equal(key.asymmetricKeyDetails?.namedCurve, 'prime256v1');
  assert.equal(verify('sha256', Buffer.from('c:u:5:'), { key, dsaEncoding: 'der' }, signature), true);
});

test('when INTERNAL_SECRET is being rotated, then an id issued with either key verifies, and one from another key does not', () => {
  const now = 1_700_000_000_000;
  const rotating = new EcdsaTriggerIds({ primary: 'new-secret', secondary: 'old-secret' });
  const fromOld = new EcdsaTriggerIds('old-secret').issue('client0000000000000000000', 'user00000000000000000000000', now);
  const fromNew = rotating.issue('client0000000000000000000', 'user00000000000000000000000', now);
  assert.equal(rotating.verify(fromOld, now, 30_000).userId, 'user00000000000000000000000');
  assert.equal(rotating.verify(fromNew, now, 30_000).userId, 'user00000000000000000000000');
  assert.equal(new EcdsaTriggerIds('new-secret').verify(fromNew, now, 30_000).userId, 'user00000000000000000000000', 'signed with the primary');
  assert.equal(idOf(() => new EcdsaTriggerIds('old-secret').verify(fromNew, now, 30_000)), 'interactive_message.decode_trigger_id.verify_signature_failed');
  assert.equal(idOf(() => rotating.verify(new EcdsaTriggerIds('third-secret').issue('c', 'u', now), now, 30_000)), 'interactive_message.decode_trigger_id.verify_signature_failed');
});

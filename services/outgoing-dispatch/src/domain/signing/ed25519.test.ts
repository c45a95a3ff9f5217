import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPublicKey, verify } from 'node:crypto';
import { defaultSystemConfig } from '@switchyard/system-config';
import { signedHeaders } from '../secrets';
import { derivedEd25519Key, ed25519PublicKey, newEd25519Key } from './ed25519';
import { integrationSigners, integrationSigningKey } from './integration-signers';

const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const publicKeyObject = (whpk: string) => createPublicKey({ key: Buffer.concat([SPKI_PREFIX, Buffer.from(whpk.slice(5), 'base64')]), format: 'der', type: 'spki' });

test('when a request is signed with two Ed25519 keys, then each v1a signature verifies (node:crypto) with its own public key only', () => {
  const [a, b] = [newEd25519Key(), newEd25519Key()];
  const headers = signedHeaders('msg_1', 1_700_000_000, '{"x":1}', [{ kind: 'ed25519', key: a }, { kind: 'ed25519', key: b }]);
  const signatures = (headers['webhook-signature'] ?? '').split(' ');
  assert.equal(signatures.length, 2);
  const signed = Buffer.from('msg_1.1700000000.{"x":1}');
  const check = (key: string, sig: string | undefined) => verify(null, signed, publicKeyObject(ed25519PublicKey(key)), Buffer.from((sig ?? '').slice(4), 'base64'));
  assert.equal(check(a, signatures[0]), true);
  assert.equal(check(b, signatures[1]), true);
  assert.equal(check(a, signatures[1]), false);
});

test('when the action-callback algorithm is ed25519, then its key is derived from the secret (stable, changes with it) and published', () => {
  const config = defaultSystemConfig();
  config.ServiceSettings.IntegrationSigningSecret = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
  assert.deepEqual(integrationSigningKey(config), { algorithm: 'hmac-sha256', public_keys: [] });
  assert.equal(integrationSigners(config)[0]?.kind, 'hmac');
  config.ServiceSettings.IntegrationSigningAlgorithm = 'ed25519';
  const published = integrationSigningKey(config).public_keys;
  assert.equal(published[0], ed25519PublicKey(derivedEd25519Key(config.ServiceSettings.IntegrationSigningSecret)));
  assert.notEqual(derivedEd25519Key(`whsec_${Buffer.alloc(32, 2).toString('base64')}`), derivedEd25519Key(config.ServiceSettings.IntegrationSigningSecret));
  config.ServiceSettings.IntegrationSigningSecret = '';
  assert.deepEqual(integrationSigners(config), []);
});

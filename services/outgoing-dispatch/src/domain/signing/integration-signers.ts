import type { SystemConfig } from '@switchyard/system-config';
import type { Signer } from '../secrets';
import { derivedEd25519Key, ed25519PublicKey } from './ed25519';

let derived: { secret: string; key: string } | undefined;

/** The action-callback Ed25519 key of this secret (derived once per secret). */
function actionKey(secret: string): string {
  if (derived?.secret !== secret) derived = { secret, key: derivedEd25519Key(secret) };
  return derived.key;
}

/**
 * How action callbacks, dialog submissions and slash commands are signed now:
 * `ServiceSettings.IntegrationSigningAlgorithm` with `IntegrationSigningSecret` (none while it is empty).
 */
export function integrationSigners(config: Readonly<SystemConfig>): Signer[] {
  const { IntegrationSigningSecret: secret, IntegrationSigningAlgorithm: algorithm } = config.ServiceSettings;
  if (secret === '') return [];
  return algorithm === 'ed25519' ? [{ kind: 'ed25519', key: actionKey(secret) }] : [{ kind: 'hmac', secret }];
}

/** `GET /api/v4/system/integration_signing_key`: the algorithm and the public keys that verify it (none for HMAC). */
export function integrationSigningKey(config: Readonly<SystemConfig>): { algorithm: string; public_keys: string[] } {
  const { IntegrationSigningSecret: secret, IntegrationSigningAlgorithm: algorithm } = config.ServiceSettings;
  return { algorithm, public_keys: algorithm === 'ed25519' && secret !== '' ? [ed25519PublicKey(actionKey(secret))] : [] };
}

import { newId } from '@switchyard/ids';
import type { OutgoingHook } from '../entities';
import type { Deps } from '../ports';
import { newSigningSecret, type Signer } from '../secrets';
import { newEd25519Key } from '../signing/ed25519';
import { accessibleHook, type Actor } from './hook-access';

/** `POST /hooks/outgoing/{id}/regen_token`: a new legacy `token`. */
export async function regenToken(deps: Deps, actor: Actor, hookId: string): Promise<OutgoingHook> {
  const hook = await accessibleHook(deps, actor, hookId);
  const now = deps.clock.now();
  const updated: OutgoingHook = { ...hook, token: newId(), updateAt: Math.max(now, hook.updateAt + 1) };
  await deps.hooks.replace(updated);
  return updated;
}

/**
 * `POST /hooks/outgoing/{id}/regen_signing_secret`: a new `signing_secret` (and, for an ed25519 hook, a new
 * key pair); the previous ones keep signing (both signatures are sent) for `DeliverySettings.SecretOverlapMinutes`.
 */
export async function regenSigningSecret(deps: Deps, actor: Actor, hookId: string): Promise<OutgoingHook> {
  const hook = await accessibleHook(deps, actor, hookId);
  const now = deps.clock.now();
  const overlapMs = deps.liveConfig.current().DeliverySettings.SecretOverlapMinutes * 60_000;
  const updated: OutgoingHook = {
    ...hook,
    signingSecret: newSigningSecret(),
    previousSigningSecret: hook.signingSecret,
    previousSecretExpiresAt: now + overlapMs,
    ...(hook.signingAlgorithm === 'ed25519' ? { signingKey: newEd25519Key(), previousSigningKey: hook.signingKey } : {}),
    updateAt: Math.max(now, hook.updateAt + 1),
  };
  await deps.hooks.replace(updated);
  return updated;
}

/** The secrets that sign a request now (the current one, and the previous one during its overlap). */
export function activeSecrets(hook: OutgoingHook, now: number): string[] {
  return hook.previousSigningSecret !== '' && hook.previousSecretExpiresAt > now ? [hook.signingSecret, hook.previousSigningSecret] : [hook.signingSecret];
}

/** Who signs a request now: the hook's algorithm with the current secret or key, and the previous one during its overlap. */
export function activeSigners(hook: OutgoingHook, now: number): Signer[] {
  if (hook.signingAlgorithm !== 'ed25519') return activeSecrets(hook, now).map((secret) => ({ kind: 'hmac', secret }));
  const keys = hook.previousSigningKey !== '' && hook.previousSecretExpiresAt > now ? [hook.signingKey, hook.previousSigningKey] : [hook.signingKey];
  return keys.map((key) => ({ kind: 'ed25519', key }));
}

import { newId } from '@switchyard/ids';
import type { OutgoingHook } from '../entities';
import type { Deps } from '../ports';
import { newSigningSecret } from '../secrets';
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
 * `POST /hooks/outgoing/{id}/regen_signing_secret`: a new `signing_secret`; the previous one keeps
 * signing (both signatures are sent) for `DeliverySettings.SecretOverlapMinutes`.
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
    updateAt: Math.max(now, hook.updateAt + 1),
  };
  await deps.hooks.replace(updated);
  return updated;
}

/** The secrets that sign a request now (the current one, and the previous one during its overlap). */
export function activeSecrets(hook: OutgoingHook, now: number): string[] {
  return hook.previousSigningSecret !== '' && hook.previousSecretExpiresAt > now ? [hook.signingSecret, hook.previousSigningSecret] : [hook.signingSecret];
}

import type { OutgoingHook } from '../entities';
import type { Deps } from '../ports';

/**
 * After one of the hook's deliveries went `dead` (retries exhausted, or its address refused): whether its
 * newest `DeliverySettings.DisableAfterDeadDeliveries` deliveries are now all dead, and if so the hook is
 * disabled, as a 410 answer does (`disabled_at`; `enable` clears it). A delivery still pending, failed or
 * delivered among them keeps the hook enabled; 0 turns the rule off. True when this call disabled it.
 */
export async function disableWhenDeadPastThreshold(deps: Deps, hook: OutgoingHook): Promise<boolean> {
  const threshold = deps.liveConfig.current().DeliverySettings.DisableAfterDeadDeliveries;
  if (!(threshold > 0)) return false;
  const newest = await deps.deliveries.listByHook(hook.id, { page: 0, perPage: threshold });
  if (newest.length < threshold || newest.some((d) => d.status !== 'dead')) return false;
  // Read again: another delivery of the hook (here or on another instance) may have disabled it already.
  const current = await deps.hooks.findById(hook.id);
  if (!current || current.deleteAt !== 0 || current.disabledAt !== 0) return false;
  const now = deps.clock.now();
  await deps.hooks.replace({ ...current, disabledAt: now, updateAt: Math.max(now, current.updateAt + 1) });
  deps.observer?.hookDisabled();
  deps.logger.warn('outgoing hook disabled: its newest deliveries are all dead', { hook_id: hook.id, dead: threshold });
  return true;
}

import type { OutgoingHook } from '../entities';
import type { Deps } from '../ports';
import { accessibleHook, type Actor } from './hook-access';

/** `POST /hooks/outgoing/{id}/enable`: clears `disabled_at` (set by a `410 Gone` answer). */
export async function enableHook(deps: Deps, actor: Actor, hookId: string): Promise<OutgoingHook> {
  const hook = await accessibleHook(deps, actor, hookId);
  if (hook.disabledAt === 0) return hook;
  const now = deps.clock.now();
  const updated: OutgoingHook = { ...hook, disabledAt: 0, updateAt: Math.max(now, hook.updateAt + 1) };
  await deps.hooks.replace(updated);
  return updated;
}

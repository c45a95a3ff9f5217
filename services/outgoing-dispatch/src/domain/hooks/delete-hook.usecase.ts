import type { Deps } from '../ports';
import { accessibleHook, type Actor } from './hook-access';

/** `DELETE /hooks/outgoing/{id}`: a soft delete; pending deliveries of the hook end up `dead`. */
export async function deleteHook(deps: Deps, actor: Actor, hookId: string): Promise<void> {
  const hook = await accessibleHook(deps, actor, hookId);
  const now = deps.clock.now();
  await deps.hooks.replace({ ...hook, deleteAt: now, updateAt: Math.max(now, hook.updateAt + 1) });
}

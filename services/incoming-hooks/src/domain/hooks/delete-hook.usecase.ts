import type { Actor, Deps } from '../ports';
import { getHookOr404, requireEnabled, requireHookAccess } from './hook-access';

/** `DELETE /hooks/incoming/{hook_id}`: soft delete (`delete_at`); the key stops working at once. */
export async function deleteHook(deps: Deps, actor: Actor, hookId: string): Promise<void> {
  requireEnabled(deps);
  const hook = await getHookOr404(deps, hookId);
  await requireHookAccess(deps, actor, hook);
  const now = deps.clock.now();
  await deps.hooks.update(hookId, { deleteAt: now, updateAt: now });
}

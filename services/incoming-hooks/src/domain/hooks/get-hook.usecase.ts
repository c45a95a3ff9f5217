import type { IncomingHook } from '../entities';
import type { Actor, Deps } from '../ports';
import { getHookOr404, requireEnabled, requireHookAccess } from './hook-access';

/** `GET /hooks/incoming/{hook_id}`. */
export async function getHook(deps: Deps, actor: Actor, hookId: string): Promise<IncomingHook> {
  requireEnabled(deps);
  const hook = await getHookOr404(deps, hookId);
  await requireHookAccess(deps, actor, hook);
  return hook;
}

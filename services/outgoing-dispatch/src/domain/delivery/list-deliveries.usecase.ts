import type { Delivery } from '../entities';
import { accessibleHook, type Actor } from '../hooks/hook-access';
import type { Deps, Page } from '../ports';

/** `GET /hooks/outgoing/{hook_id}/deliveries`: newest first, with the hook's access rules. */
export async function listDeliveries(deps: Deps, actor: Actor, hookId: string, page: Page): Promise<Delivery[]> {
  await accessibleHook(deps, actor, hookId);
  return deps.deliveries.listByHook(hookId, page);
}

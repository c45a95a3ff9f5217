import type { OutgoingHook } from '../entities';
import type { Deps } from '../ports';
import { accessibleHook, type Actor } from './hook-access';

/** `GET /hooks/outgoing/{id}`. */
export async function getHook(deps: Deps, actor: Actor, hookId: string): Promise<OutgoingHook> {
  return accessibleHook(deps, actor, hookId);
}

import { commonErrors } from '@switchyard/errors';
import { canWriteSysconsole } from '@switchyard/permissions';
import { applyConfigPatch, type SystemConfig } from '@switchyard/system-config';
import type { Actor } from '../authorization';
import type { Deps } from '../ports';
import { saveConfig } from './save-config';

/** `PUT /config/patch`: a partial document (type-checked by the route) merged onto the current one. */
export async function patchConfig(deps: Deps, actor: Actor, patch: Record<string, unknown>): Promise<SystemConfig> {
  if (!canWriteSysconsole(actor.roles)) throw commonErrors.permissions(actor.userId, 'sysconsole_write_*');
  const current = deps.liveConfig.current();
  return saveConfig(deps, current, applyConfigPatch(current as SystemConfig, patch));
}

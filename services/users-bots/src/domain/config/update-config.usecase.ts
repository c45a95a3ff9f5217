import { commonErrors } from '@switchyard/errors';
import { canWriteSysconsole } from '@switchyard/permissions';
import { replaceConfig, type SystemConfig } from '@switchyard/system-config';
import type { Actor } from '../authorization';
import type { Deps } from '../ports';
import { saveConfig } from './save-config';

/** `PUT /config`: a full document (type-checked by the route); missing keys take their defaults. */
export async function updateConfig(deps: Deps, actor: Actor, full: Record<string, unknown>): Promise<SystemConfig> {
  if (!canWriteSysconsole(actor.roles)) throw commonErrors.permissions(actor.userId, 'sysconsole_write_*');
  const current = deps.liveConfig.current();
  return saveConfig(deps, current, replaceConfig(current as SystemConfig, full));
}

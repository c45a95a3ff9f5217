import { commonErrors } from '@switchyard/errors';
import { canReadSysconsole } from '@switchyard/permissions';
import type { SystemConfig } from '@switchyard/system-config';
import type { Actor } from '../authorization';
import type { Deps } from '../ports';

/** `GET /config`: any sysconsole_read_* permission. The caller masks secrets before answering. */
export function getConfig(deps: Deps, actor: Actor): Readonly<SystemConfig> {
  if (!canReadSysconsole(actor.roles)) throw commonErrors.permissions(actor.userId, 'sysconsole_read_*');
  return deps.liveConfig.current();
}

import { commonErrors } from '@switchyard/errors';
import type { Actor } from '../hooks/hook-access';
import type { Deps } from '../ports';
import type { Command } from './command';
import { manageableCommand } from './command-access';
import { commandErrors } from './command-errors';
import { editableFields, type CommandInput } from './command-input';
import { assertTriggerFree, assertValidCommand } from './command-rules';

/**
 * `PUT /commands/{id}`: the body is the whole command. id, token, times, creator and team are kept;
 * everything else is replaced and validated again (a partial body fails, e.g. on `method`). The body's
 * `team_id` must be the stored one. The access check comes before the team check, so a caller who may
 * not see the command learns nothing about it.
 */
export async function updateCommand(deps: Deps, actor: Actor, commandId: string, input: CommandInput): Promise<Command> {
  if (input.id !== commandId) throw commonErrors.invalidBodyParam('command');
  const stored = await manageableCommand(deps, actor, commandId, 'change');
  if ((input.teamId ?? '') !== stored.teamId) throw commandErrors.teamMismatch(actor.userId);
  const updated: Command = { ...stored, ...editableFields(input), updateAt: Math.max(deps.clock.now(), stored.updateAt + 1) };
  assertTriggerFree(updated.trigger, await deps.commands.listByTeam(stored.teamId), stored.id);
  assertValidCommand(updated);
  if (!(await deps.commands.replace(updated))) throw commandErrors.notFound();
  return updated;
}

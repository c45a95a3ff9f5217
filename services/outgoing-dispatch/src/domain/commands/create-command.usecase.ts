import { commonErrors } from '@switchyard/errors';
import { newId } from '@switchyard/ids';
import { Permissions } from '@switchyard/permissions';
import type { Actor } from '../hooks/hook-access';
import type { Deps } from '../ports';
import type { Command } from './command';
import { canManageOthers, canManageOwn, requireCommandsEnabled } from './command-access';
import { commandErrors } from './command-errors';
import { editableFields, type CommandInput } from './command-input';
import { assertTriggerFree, assertValidCommand } from './command-rules';

/**
 * `POST /commands` (201 with the token). The team permission comes first, so a missing `team_id` is 403;
 * a caller with manage_others may name another existing creator. Never by or for a bot (bot rule 11).
 */
export async function createCommand(deps: Deps, actor: Actor, input: CommandInput): Promise<Command> {
  if (actor.isBot) throw commandErrors.createdByBot();
  const teamId = input.teamId ?? '';
  if (!(await canManageOwn(deps, actor, teamId))) throw commonErrors.permissions(actor.userId, Permissions.manageSlashCommands);
  let creatorId = actor.userId;
  if (input.creatorId !== undefined && input.creatorId !== '' && input.creatorId !== actor.userId) {
    if (!(await canManageOthers(deps, actor, teamId))) throw commonErrors.permissions(actor.userId, Permissions.manageOthersSlashCommands);
    const [creator] = await deps.platform.users([input.creatorId]);
    if (!creator) throw commandErrors.creatorNotFound();
    if (creator.isBot) throw commandErrors.createdByBot();
    creatorId = creator.id;
  }
  requireCommandsEnabled(deps);
  const now = deps.clock.now();
  const command: Command = { id: newId(), token: newId(), createAt: now, updateAt: now, deleteAt: 0, creatorId, teamId, ...editableFields(input) };
  assertTriggerFree(command.trigger, await deps.commands.listByTeam(teamId));
  assertValidCommand(command);
  await deps.commands.insert(command);
  return command;
}

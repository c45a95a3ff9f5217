import { newId } from '@switchyard/ids';
import type { Actor } from '../hooks/hook-access';
import type { Deps } from '../ports';
import type { Command } from './command';
import { manageableCommand } from './command-access';
import { commandErrors } from './command-errors';

/** `GET /commands/{id}`: the full command, token included, or 404 for anyone who may not manage it. */
export function getCommand(deps: Deps, actor: Actor, commandId: string): Promise<Command> {
  return manageableCommand(deps, actor, commandId, 'get');
}

/** `DELETE /commands/{id}`: soft delete. */
export async function deleteCommand(deps: Deps, actor: Actor, commandId: string): Promise<void> {
  const command = await manageableCommand(deps, actor, commandId, 'change');
  const now = Math.max(deps.clock.now(), command.updateAt + 1);
  if (!(await deps.commands.replace({ ...command, deleteAt: now, updateAt: now }))) throw commandErrors.notFound();
}

/** `PUT /commands/{id}/regen_token`: a new 26-char token; the old one stops being sent at once. */
export async function regenCommandToken(deps: Deps, actor: Actor, commandId: string): Promise<string> {
  const command = await manageableCommand(deps, actor, commandId, 'change');
  const token = newId();
  if (!(await deps.commands.replace({ ...command, token, updateAt: Math.max(deps.clock.now(), command.updateAt + 1) }))) throw commandErrors.notFound();
  return token;
}

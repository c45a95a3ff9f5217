import { commonErrors } from '@switchyard/errors';
import { isValidId } from '@switchyard/ids';
import { Permissions } from '@switchyard/permissions';
import { hasTeamPermission, type Actor } from '../hooks/hook-access';
import type { Deps } from '../ports';
import type { Command } from './command';
import { commandErrors } from './command-errors';

type AccessDeps = Pick<Deps, 'platform' | 'liveConfig'>;

/** 501 `api.command.disabled.app_error` when `EnableCommands` is off. */
export function requireCommandsEnabled(deps: Pick<Deps, 'liveConfig'>): void {
  if (!deps.liveConfig.current().ServiceSettings.EnableCommands) throw commandErrors.disabled();
}

/**
 * manage_slash_commands on the team (system roles, then team roles). With `EnableOnlyAdminIntegrations`
 * off, any team member has it: the effect of the reference's one-time migration, applied live (ADR 0008).
 */
export async function canManageOwn(deps: AccessDeps, actor: Actor, teamId: string): Promise<boolean> {
  if (await hasTeamPermission(deps, actor, teamId, Permissions.manageSlashCommands)) return true;
  if (deps.liveConfig.current().ServiceSettings.EnableOnlyAdminIntegrations || !isValidId(teamId)) return false;
  return (await deps.platform.teamRoles(teamId, actor.userId)) !== '';
}

export function canManageOthers(deps: AccessDeps, actor: Actor, teamId: string): Promise<boolean> {
  return hasTeamPermission(deps, actor, teamId, Permissions.manageOthersSlashCommands);
}

/**
 * The command behind get/update/delete/regen: it must exist (and commands be enabled), and the caller
 * must manage commands on its team (get: also view it); anything else is 404, as the reference, which
 * never reveals that a command exists. Someone else's command needs manage_others: 403 (get: 404).
 */
export async function manageableCommand(deps: AccessDeps & Pick<Deps, 'commands'>, actor: Actor, commandId: string, mode: 'get' | 'change'): Promise<Command> {
  const enabled = deps.liveConfig.current().ServiceSettings.EnableCommands;
  const command = enabled && isValidId(commandId) ? await deps.commands.findById(commandId) : undefined;
  if (!command || command.deleteAt !== 0) throw commandErrors.notFound();
  if (mode === 'get' && !(await hasTeamPermission(deps, actor, command.teamId, Permissions.viewTeam))) throw commandErrors.notFound();
  if (!(await canManageOwn(deps, actor, command.teamId))) throw commandErrors.notFound();
  if (command.creatorId !== actor.userId && !(await canManageOthers(deps, actor, command.teamId))) {
    if (mode === 'get') throw commandErrors.notFound();
    throw commonErrors.permissions(actor.userId, Permissions.manageOthersSlashCommands);
  }
  return command;
}

import { commonErrors } from '@switchyard/errors';
import { Permissions } from '@switchyard/permissions';
import { hasTeamPermission, type Actor } from '../hooks/hook-access';
import type { Deps } from '../ports';
import type { Command } from './command';
import { canManageOthers, canManageOwn, requireCommandsEnabled } from './command-access';

export interface ListedCommand {
  readonly command: Command;
  /** Token, creator, method, URL, username and icon blanked (the reference's `Sanitize`). */
  readonly sanitised: boolean;
}

/**
 * `GET /commands?team_id=&custom_only=`. Built-in commands are not implemented, so the lists hold the
 * team's custom commands only:
 * - custom_only: needs manage_slash_commands; full commands (tokens included), only the caller's own
 *   unless they have manage_others; 501 when commands are disabled;
 * - otherwise, with manage permission: the same set sanitised; without: only auto-complete commands,
 *   sanitised (the autocomplete list). Nothing custom when commands are disabled.
 */
export async function listCommands(deps: Deps, actor: Actor, teamId: string, customOnly: boolean): Promise<ListedCommand[]> {
  if (teamId === '') throw commonErrors.invalidBodyParam('team_id');
  if (!(await hasTeamPermission(deps, actor, teamId, Permissions.viewTeam))) throw commonErrors.permissions(actor.userId, Permissions.viewTeam);
  const manages = await canManageOwn(deps, actor, teamId);
  if (customOnly) {
    if (!manages) throw commonErrors.permissions(actor.userId, Permissions.manageSlashCommands);
    requireCommandsEnabled(deps);
    const all = await canManageOthers(deps, actor, teamId);
    return (await deps.commands.listByTeam(teamId, all ? undefined : actor.userId)).map((command) => ({ command, sanitised: false }));
  }
  if (!deps.liveConfig.current().ServiceSettings.EnableCommands) return [];
  if (!manages) return (await deps.commands.listByTeam(teamId)).filter((c) => c.autoComplete).map((command) => ({ command, sanitised: true }));
  const all = await canManageOthers(deps, actor, teamId);
  return (await deps.commands.listByTeam(teamId, all ? undefined : actor.userId)).map((command) => ({ command, sanitised: true }));
}

/**
 * `GET /teams/{team_id}/commands/autocomplete`: the team's auto-complete commands, sanitised (view_team
 * required; nothing custom when commands are disabled). Built-in commands are not implemented.
 */
export async function listAutocompleteCommands(deps: Deps, actor: Actor, teamId: string): Promise<Command[]> {
  if (!(await hasTeamPermission(deps, actor, teamId, Permissions.viewTeam))) throw commonErrors.permissions(actor.userId, Permissions.viewTeam);
  if (!deps.liveConfig.current().ServiceSettings.EnableCommands) return [];
  return (await deps.commands.listByTeam(teamId)).filter((c) => c.autoComplete);
}

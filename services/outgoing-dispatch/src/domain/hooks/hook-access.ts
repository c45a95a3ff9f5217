import { commonErrors } from '@switchyard/errors';
import { isValidId } from '@switchyard/ids';
import { hasPermission, Permissions } from '@switchyard/permissions';
import type { OutgoingHook } from '../entities';
import { hookErrors } from '../errors';
import type { Deps } from '../ports';

/** The caller, as the gateway authenticated them. */
export interface Actor {
  readonly userId: string;
  readonly roles: string;
  /** A bot's token (bots never create slash commands: bot rule 11). */
  readonly isBot?: boolean;
}

/** 501 on every outgoing-hook call when `EnableOutgoingWebhooks` is off. */
export function requireOutgoingEnabled(deps: Pick<Deps, 'liveConfig'>): void {
  if (!deps.liveConfig.current().ServiceSettings.EnableOutgoingWebhooks) throw hookErrors.disabled();
}

/** System roles first (an admin may act in every team), then the caller's roles in that team. */
export async function hasTeamPermission(deps: Pick<Deps, 'platform'>, actor: Actor, teamId: string, permission: string): Promise<boolean> {
  if (hasPermission(actor.roles, permission)) return true;
  if (!isValidId(teamId)) return false;
  return hasPermission(await deps.platform.teamRoles(teamId, actor.userId), permission);
}

export async function requireTeamPermission(deps: Pick<Deps, 'platform'>, actor: Actor, teamId: string, permission: string): Promise<void> {
  if (!(await hasTeamPermission(deps, actor, teamId, permission))) throw commonErrors.permissions(actor.userId, permission);
}

/** manage_own on the hook's team, and manage_others when the caller did not create it. */
export async function requireHookAccess(deps: Pick<Deps, 'platform'>, actor: Actor, hook: OutgoingHook): Promise<void> {
  await requireTeamPermission(deps, actor, hook.teamId, Permissions.manageOwnOutgoingWebhooks);
  if (hook.creatorId !== actor.userId) await requireTeamPermission(deps, actor, hook.teamId, Permissions.manageOthersOutgoingWebhooks);
}

/** A hook that exists and is not deleted, or 404 `app.webhooks.get_outgoing.app_error`. */
export async function loadHook(deps: Pick<Deps, 'hooks'>, hookId: string): Promise<OutgoingHook> {
  const hook = await deps.hooks.findById(hookId);
  if (!hook || hook.deleteAt !== 0) throw hookErrors.notFound();
  return hook;
}

/** The hook after the access checks of get/update/delete/regen. */
export async function accessibleHook(deps: Pick<Deps, 'hooks' | 'platform' | 'liveConfig'>, actor: Actor, hookId: string): Promise<OutgoingHook> {
  requireOutgoingEnabled(deps);
  const hook = await loadHook(deps, hookId);
  await requireHookAccess(deps, actor, hook);
  return hook;
}

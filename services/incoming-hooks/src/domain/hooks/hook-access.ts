import type { InternalChannel } from '@switchyard/contracts';
import { hasChannelPermission, hasPermission, hasTeamPermission, Permissions } from '@switchyard/permissions';
import type { IncomingHook } from '../entities';
import { Errors } from '../errors';
import type { Actor, Deps } from '../ports';

/** The actor's team roles, fetched once per use case. */
export async function teamRolesOf(deps: Pick<Deps, 'users'>, actor: Actor, teamId: string): Promise<string | undefined> {
  if (teamId === '') return undefined;
  return deps.users.teamRoles(teamId, actor.userId);
}

export function hasTeamPerm(actor: Actor, teamRoles: string | undefined, permission: string): boolean {
  return hasTeamPermission(actor.roles, teamRoles, permission);
}

export function requireTeamPerm(actor: Actor, teamRoles: string | undefined, permission: string): void {
  if (!hasTeamPerm(actor, teamRoles, permission)) throw Errors.permissions(actor.userId, permission);
}

/** `SessionHasPermissionToChannel`: system roles, then team roles, then the member's channel roles. */
export async function hasChannelPerm(deps: Pick<Deps, 'channels'>, actor: Actor, teamRoles: string | undefined, channel: InternalChannel, permission: string): Promise<boolean> {
  if (hasTeamPermission(actor.roles, teamRoles, permission)) return true;
  const channelRoles = await deps.channels.memberRoles(channel.id, actor.userId);
  return channelRoles !== undefined && hasChannelPermission(actor.roles, teamRoles, channelRoles, permission);
}

/** Non-open channels need read access (403 read_channel_content). */
export async function requireChannelRead(deps: Pick<Deps, 'channels'>, actor: Actor, teamRoles: string | undefined, channel: InternalChannel): Promise<void> {
  if (channel.type === 'O') return;
  if (!(await hasChannelPerm(deps, actor, teamRoles, channel, Permissions.readChannelContent))) {
    throw Errors.permissions(actor.userId, Permissions.readChannelContent);
  }
}

export async function getChannelOr404(deps: Pick<Deps, 'channels'>, channelId: string): Promise<InternalChannel> {
  const channel = channelId === '' ? undefined : await deps.channels.channel(channelId);
  if (!channel) throw Errors.channelNotFound();
  return channel;
}

/** A live hook, or 404 app.webhooks.get_incoming.app_error. */
export async function getHookOr404(deps: Pick<Deps, 'hooks'>, hookId: string): Promise<IncomingHook> {
  const hook = await deps.hooks.findById(hookId);
  if (!hook || hook.deleteAt > 0) throw Errors.hookNotFound();
  return hook;
}

/** Read/delete access to one hook, as `getIncomingHook`/`deleteIncomingHook` check it. */
export async function requireHookAccess(deps: Pick<Deps, 'channels' | 'users'>, actor: Actor, hook: IncomingHook): Promise<void> {
  const teamRoles = await teamRolesOf(deps, actor, hook.teamId);
  const channel = await deps.channels.channel(hook.channelId);
  const channelOk = !channel || channel.type === 'O' || (await hasChannelPerm(deps, actor, teamRoles, channel, Permissions.readChannelContent));
  if (!hasTeamPerm(actor, teamRoles, Permissions.manageOwnIncomingWebhooks) || !channelOk) {
    throw Errors.permissions(actor.userId, Permissions.manageOwnIncomingWebhooks);
  }
  if (actor.userId !== hook.userId) requireTeamPerm(actor, teamRoles, Permissions.manageOthersIncomingWebhooks);
}

export function isSystemWide(actor: Actor, permission: string): boolean {
  return hasPermission(actor.roles, permission);
}

export function requireEnabled(deps: Pick<Deps, 'liveConfig'>): void {
  if (!deps.liveConfig.current().ServiceSettings.EnableIncomingWebhooks) throw Errors.crudDisabled();
}

import { Permissions } from '@switchyard/permissions';
import type { IncomingHook } from '../entities';
import { Errors } from '../errors';
import type { Actor, Deps } from '../ports';
import { getChannelOr404, getHookOr404, hasChannelPerm, requireChannelRead, requireEnabled, requireTeamPerm, teamRolesOf } from './hook-access';
import type { HookInput } from './hook-input';
import { assertHookUsername, assertValidHook } from './hook-rules';
import { transformFieldsOf } from '../transform/transform-rules';

/** `PUT /hooks/incoming/{hook_id}`: the body is the whole hook; identity fields come from the stored one. */
export async function updateHook(deps: Deps, actor: Actor, hookId: string, input: HookInput): Promise<IncomingHook> {
  requireEnabled(deps);
  if (input.id !== hookId) throw Errors.invalidBodyParam('hook_id');
  const old = await getHookOr404(deps, hookId);
  const teamId = input.teamId === undefined || input.teamId === '' ? old.teamId : input.teamId;
  if (teamId !== old.teamId) throw Errors.teamMismatch();
  const channel = await getChannelOr404(deps, input.channelId);
  if (channel.team_id !== teamId) throw Errors.invalidBodyParam('channel_id');
  const teamRoles = await teamRolesOf(deps, actor, teamId);
  requireTeamPerm(actor, teamRoles, Permissions.manageOwnIncomingWebhooks);
  if (actor.userId !== old.userId) requireTeamPerm(actor, teamRoles, Permissions.manageOthersIncomingWebhooks);
  await requireChannelRead(deps, actor, teamRoles, channel);
  const settings = deps.liveConfig.current().ServiceSettings;
  const username = settings.EnablePostUsernameOverride ? (input.username ?? '') : old.username;
  const iconUrl = settings.EnablePostIconOverride ? (input.iconUrl ?? '') : old.iconUrl;
  assertHookUsername(username);
  const bypass = await hasChannelPerm(deps, actor, teamRoles, channel, Permissions.bypassIncomingWebhookChannelLock);
  const next: IncomingHook = {
    ...old,
    updateAt: Math.max(deps.clock.now(), old.updateAt),
    channelId: channel.id,
    displayName: input.displayName ?? '',
    description: input.description ?? '',
    username,
    iconUrl,
    channelLocked: bypass && !settings.EnforceIncomingWebhookChannelLocking ? (input.channelLocked ?? false) : true,
    reactionNotifications: input.reactionNotifications ?? false,
    ...transformFieldsOf(input, old),
  };
  assertValidHook(next);
  const { id: _id, createAt: _c, userId: _u, teamId: _t, ...changes } = next;
  const saved = await deps.hooks.update(hookId, changes);
  if (!saved) throw Errors.hookNotFound();
  return saved;
}

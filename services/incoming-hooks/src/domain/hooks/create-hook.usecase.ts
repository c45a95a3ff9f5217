import { Permissions } from '@switchyard/permissions';
import type { IncomingHook } from '../entities';
import { Errors } from '../errors';
import type { Actor, Deps } from '../ports';
import { getChannelOr404, hasChannelPerm, requireChannelRead, requireEnabled, requireTeamPerm, teamRolesOf } from './hook-access';
import type { HookInput } from './hook-input';
import { assertHookUsername, assertValidHook } from './hook-rules';
import { transformFieldsOf } from '../transform/transform-rules';

/** `POST /hooks/incoming` (api4 createIncomingHook + app CreateIncomingWebhookForChannel). */
export async function createHook(deps: Deps, actor: Actor, input: HookInput): Promise<IncomingHook> {
  requireEnabled(deps);
  const channel = await getChannelOr404(deps, input.channelId);
  const teamRoles = await teamRolesOf(deps, actor, channel.team_id);
  requireTeamPerm(actor, teamRoles, Permissions.manageOwnIncomingWebhooks);
  await requireChannelRead(deps, actor, teamRoles, channel);
  let ownerId = actor.userId;
  if (input.userId && input.userId !== actor.userId) {
    requireTeamPerm(actor, teamRoles, Permissions.manageOthersIncomingWebhooks);
    const [owner] = await deps.users.usersByIds([input.userId]);
    if (!owner) throw Errors.userNotFound();
    ownerId = owner.id;
  }
  const settings = deps.liveConfig.current().ServiceSettings;
  const username = settings.EnablePostUsernameOverride ? (input.username ?? '') : '';
  const iconUrl = settings.EnablePostIconOverride ? (input.iconUrl ?? '') : '';
  assertHookUsername(username);
  const bypass = await hasChannelPerm(deps, actor, teamRoles, channel, Permissions.bypassIncomingWebhookChannelLock);
  const now = deps.clock.now();
  const hook: IncomingHook = {
    id: deps.ids.newId(),
    createAt: now,
    updateAt: now,
    deleteAt: 0,
    userId: ownerId,
    channelId: channel.id,
    teamId: channel.team_id,
    displayName: input.displayName ?? '',
    description: input.description ?? '',
    username,
    iconUrl,
    channelLocked: bypass && !settings.EnforceIncomingWebhookChannelLocking ? (input.channelLocked ?? false) : true,
    reactionNotifications: input.reactionNotifications ?? false,
    ...transformFieldsOf(input),
  };
  assertValidHook(hook);
  await deps.hooks.insert(hook);
  return hook;
}

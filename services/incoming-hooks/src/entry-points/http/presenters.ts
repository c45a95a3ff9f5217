import type { WireIncomingHook } from '@switchyard/contracts/wire';
import type { IncomingHook } from '../../domain/entities';
import type { HookInput } from '../../domain/hooks/hook-input';
import { SECRET_MASK } from '../../domain/transform/transform-rules';
import type { HookBody } from './hooks.schemas';

/** IncomingWebhook JSON (mattermost-wire.md §9) plus `reaction_notifications` and the Hook transform fields (the secret masked). */
export function presentHook(hook: IncomingHook): WireIncomingHook {
  return {
    id: hook.id,
    create_at: hook.createAt,
    update_at: hook.updateAt,
    delete_at: hook.deleteAt,
    user_id: hook.userId,
    channel_id: hook.channelId,
    team_id: hook.teamId,
    display_name: hook.displayName,
    description: hook.description,
    username: hook.username,
    icon_url: hook.iconUrl,
    channel_locked: hook.channelLocked,
    reaction_notifications: hook.reactionNotifications,
    transform: hook.transform ?? null,
    only_events: hook.onlyEvents ?? [],
    exclude_events: hook.excludeEvents ?? [],
    transform_secret: hook.transformSecret ? SECRET_MASK : '',
  };
}

export function hookInputFrom(body: HookBody): HookInput {
  return {
    channelId: body.channel_id ?? '',
    ...(body.id !== undefined ? { id: body.id } : {}),
    ...(body.team_id !== undefined ? { teamId: body.team_id } : {}),
    ...(body.user_id !== undefined ? { userId: body.user_id } : {}),
    ...(body.display_name !== undefined ? { displayName: body.display_name } : {}),
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(body.username !== undefined ? { username: body.username } : {}),
    ...(body.icon_url !== undefined ? { iconUrl: body.icon_url } : {}),
    ...(body.channel_locked !== undefined ? { channelLocked: body.channel_locked } : {}),
    ...(body.reaction_notifications !== undefined ? { reactionNotifications: body.reaction_notifications } : {}),
    ...(body.transform !== undefined ? { transform: body.transform } : {}),
    ...(body.only_events !== undefined ? { onlyEvents: body.only_events } : {}),
    ...(body.exclude_events !== undefined ? { excludeEvents: body.exclude_events } : {}),
    ...(body.transform_secret !== undefined ? { transformSecret: body.transform_secret } : {}),
  };
}

import { commonErrors } from '@switchyard/errors';
import { hasPermission, Permissions } from '@switchyard/permissions';
import type { Actor } from '../actor';
import type { Channel, ChannelMember } from '../entities';
import type { Deps } from '../ports';

function requireSelfOrAdmin(actor: Actor, userId: string): void {
  if (userId !== actor.userId && !hasPermission(actor.roles, Permissions.manageSystem)) throw commonErrors.permissions(actor.userId, Permissions.manageSystem);
}

/**
 * The user's channels with their memberships: every channel (`teamId` undefined) or those of one team
 * plus direct and group channels (as `GET /users/{id}/teams/{team_id}/channels` answers). Archived
 * ones only when asked. Only oneself, or with manage_system.
 */
export async function listUserChannels(deps: Deps, actor: Actor, userId: string, teamId: string | undefined, includeArchived: boolean): Promise<{ channel: Channel; member: ChannelMember }[]> {
  requireSelfOrAdmin(actor, userId);
  const members = await deps.channelMembers.listByUser(userId);
  const channels = await deps.channels.findByIds(members.map((m) => m.channel_id));
  const byId = new Map(channels.map((c) => [c.id, c] as const));
  return members.flatMap((member) => {
    const channel = byId.get(member.channel_id);
    if (!channel) return [];
    if (!includeArchived && channel.delete_at !== 0) return [];
    if (teamId !== undefined && channel.team_id !== teamId && channel.team_id !== '') return [];
    return [{ channel, member }];
  });
}

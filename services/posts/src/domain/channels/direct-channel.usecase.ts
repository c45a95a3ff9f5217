import { commonErrors } from '@switchyard/errors';
import { hasPermission, Permissions } from '@switchyard/permissions';
import type { Actor } from '../actor';
import type { Channel } from '../entities';
import { Errors, isDuplicateKeyError } from '../errors';
import type { Deps } from '../ports';
import { publishChannelEvent } from './channel-events';
import { directChannelName } from './channel-rules';
import { ensureMember, newMember } from './members';
import { newChannel } from './new-channel';

/**
 * The direct channel of two users (`<smaller>__<larger>`; a self-DM is `<id>__<id>`), created with both
 * memberships when missing. Concurrent callers end with the same channel (the name is unique).
 */
export async function getOrCreateDirectChannel(deps: Deps, a: string, b: string, creatorId = a): Promise<Channel> {
  const name = directChannelName(a, b);
  const existing = await deps.channels.findByName('', name);
  if (existing) return existing;
  const now = deps.clock.now();
  const channel = newChannel({ team_id: '', team_name: '', type: 'D', display_name: '', name, creator_id: creatorId }, now);
  try {
    await deps.channels.insert(channel);
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    const raced = await deps.channels.findByName('', name);
    if (!raced) throw error;
    return raced;
  }
  for (const userId of new Set([a, b])) await ensureMember(deps, newMember(channel.id, userId, now));
  await publishChannelEvent(deps, 'channel.created', channel);
  return channel;
}

/** `POST /channels/direct`: the caller must be one of the two (unless manage_system); both users must exist. */
export async function createDirectChannel(deps: Deps, actor: Actor, userIds: readonly [string, string]): Promise<Channel> {
  const [a, b] = userIds;
  if (!hasPermission(actor.roles, Permissions.createDirectChannel)) throw commonErrors.permissions(actor.userId, Permissions.createDirectChannel);
  if (a !== actor.userId && b !== actor.userId && !hasPermission(actor.roles, Permissions.manageSystem)) {
    throw commonErrors.permissions(actor.userId, Permissions.manageSystem);
  }
  const wanted = [...new Set([a, b])];
  const users = await deps.users.usersByIds(wanted);
  if (users.length !== wanted.length) throw Errors.directUserMissing();
  return getOrCreateDirectChannel(deps, a, b, actor.userId);
}

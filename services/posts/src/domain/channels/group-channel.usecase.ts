import { createHash } from 'node:crypto';
import { badRequest, commonErrors } from '@switchyard/errors';
import { envelope, Topics } from '@switchyard/contracts';
import { hasPermission, Permissions } from '@switchyard/permissions';
import type { Actor } from '../actor';
import type { Channel } from '../entities';
import { isDuplicateKeyError } from '../errors';
import type { Deps } from '../ports';
import { toInternalChannel } from './channel-events';
import { ensureMember, newMember } from './members';
import { newChannel } from './new-channel';

export const GROUP_MIN_USERS = 3;
export const GROUP_MAX_USERS = 8;
const DISPLAY_NAME_MAX_BYTES = 64;

const badSize = () => badRequest('api.channel.create_group.bad_size.app_error', 'Group message channels must contain at least 3 and no more than 8 users.');
const badUser = () => badRequest('api.channel.create_group.bad_user.app_error', 'One of the provided users does not exist.');

/** The reference's group channel name: lower-case hex SHA-1 of the sorted ids, concatenated. */
export function groupChannelName(userIds: readonly string[]): string {
  return createHash('sha1').update([...userIds].sort().join('')).digest('hex');
}

/** Usernames sorted and joined with `, `, cut at 64 bytes (never inside a character). */
export function groupDisplayName(usernames: readonly string[]): string {
  let out = [...usernames].sort().join(', ');
  while (Buffer.byteLength(out) > DISPLAY_NAME_MAX_BYTES) out = out.slice(0, -1);
  return out;
}

/**
 * `POST /channels/group` (mattermost-wire-3.md §3.3), checked in the reference's order. The caller is added
 * when absent; 3 to 8 ids counting duplicates; every id an existing user (a duplicate fails here too). An
 * existing group with exactly these members is returned as it is (no event).
 */
export async function createGroupChannel(deps: Deps, actor: Actor, requested: readonly string[]): Promise<Channel> {
  const ids = requested.includes(actor.userId) ? [...requested] : [...requested, actor.userId];
  if (!hasPermission(actor.roles, Permissions.createGroupChannel)) throw commonErrors.permissions(actor.userId, Permissions.createGroupChannel);
  if (!hasPermission(actor.roles, Permissions.viewMembers)) throw commonErrors.permissions(actor.userId, Permissions.viewMembers);
  if (ids.length < GROUP_MIN_USERS || ids.length > GROUP_MAX_USERS) throw badSize();
  const unique = [...new Set(ids)];
  if (unique.length !== ids.length) throw badUser();
  const users = (await deps.users.usersByIds(unique)).filter((u) => u.deleteAt === 0 || u.id === actor.userId);
  if (users.length !== unique.length) throw badUser();

  const name = groupChannelName(unique);
  const existing = await deps.channels.findByName('', name);
  if (existing) return existing;
  const now = deps.clock.now();
  const channel = newChannel({ team_id: '', team_name: '', type: 'G', display_name: groupDisplayName(users.map((u) => u.username)), name, creator_id: actor.userId }, now);
  try {
    await deps.channels.insert(channel);
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    const raced = await deps.channels.findByName('', name);
    if (!raced) throw error;
    return raced;
  }
  for (const userId of unique) await ensureMember(deps, newMember(channel.id, userId, now));
  await deps.events
    .publish(Topics.channelsEvents, [{ key: channel.id, value: envelope('channel.created', { channel: toInternalChannel(channel), actor_id: actor.userId, member_ids: unique }) }])
    .catch(() => undefined);
  return channel;
}

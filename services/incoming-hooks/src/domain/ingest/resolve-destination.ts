import type { InternalChannel, InternalUser } from '@switchyard/contracts';
import { hasPermission, Permissions } from '@switchyard/permissions';
import type { IncomingHook } from '../entities';
import { Errors } from '../errors';
import type { Deps } from '../ports';

const DIRECT_NAME = /^([a-z0-9]{26})__([a-z0-9]{26})$/;

/**
 * `<id1>__<id2>`: the reference finds direct channels by name in any team. posts' by-name lookup is
 * per team, so the direct channel is reached through get-or-create, and only when the owner takes part
 * or may read every channel (nothing is created for anyone else); both users must exist.
 */
async function directByName(deps: Pick<Deps, 'channels' | 'users'>, hook: IncomingHook, locked: boolean, name: string, owner: () => Promise<InternalUser>): Promise<InternalChannel | undefined> {
  const [, a = '', b = ''] = DIRECT_NAME.exec(name) ?? [];
  if (locked) throw Errors.channelLocked();
  const users = await deps.users.usersByIds(a === b ? [a] : [a, b]);
  if (users.length !== (a === b ? 1 : 2)) return undefined;
  if (hook.userId !== a && hook.userId !== b) {
    let user: InternalUser;
    try {
      user = await owner();
    } catch {
      throw Errors.ownerNotFound();
    }
    if (!hasPermission(user.roles, Permissions.readChannelContent)) throw Errors.channelPermissions();
  }
  return deps.channels.directChannel(a, b);
}

/**
 * Where a hook's post goes (mattermost-wire.md §9 rows 5–9): the hook's channel; `@username` → the DM of
 * the owner and that user (oneself included); `#name` or `name` → a channel of the hook's team, or a
 * direct channel `<id1>__<id2>` the owner may read. Locked hooks only post to their channel (every hook
 * while `EnforceIncomingWebhookChannelLocking` is on, 11.2); non-open channels need the owner's read access.
 */
export async function resolveDestination(deps: Pick<Deps, 'channels' | 'users' | 'liveConfig'>, hook: IncomingHook, requested: string, owner: () => Promise<InternalUser>): Promise<{ channel: InternalChannel; owner: InternalUser }> {
  const locked = hook.channelLocked || deps.liveConfig.current().ServiceSettings.EnforceIncomingWebhookChannelLocking;
  let channel: InternalChannel | undefined;
  if (requested === '') {
    channel = await deps.channels.channel(hook.channelId);
    if (!channel) throw Errors.channelNotFound();
  } else if (requested.startsWith('@')) {
    const username = requested.slice(1).toLowerCase();
    const [target] = username === '' ? [] : await deps.users.usersByUsernames([username]);
    if (!target) throw Errors.dmUserNotFound();
    channel = await deps.channels.directChannel(hook.userId, target.id);
  } else {
    const name = requested.startsWith('#') ? requested.slice(1) : requested;
    channel = name === '' ? undefined : await deps.channels.channelByName(hook.teamId, name);
    if (!channel && DIRECT_NAME.test(name)) channel = await directByName(deps, hook, locked, name, owner);
    if (!channel) throw Errors.targetChannelNotFound();
  }
  if (locked && channel.id !== hook.channelId) throw Errors.channelLocked();
  let user: InternalUser;
  try {
    user = await owner();
  } catch {
    throw Errors.ownerNotFound();
  }
  // Members may read their channel; otherwise only system-wide read rights (a system admin) will do.
  if (channel.type !== 'O' && !hasPermission(user.roles, Permissions.readChannelContent)) {
    if ((await deps.channels.memberRoles(channel.id, user.id)) === undefined) throw Errors.channelPermissions();
  }
  if (channel.delete_at > 0) throw Errors.archivedChannel();
  return { channel, owner: user };
}

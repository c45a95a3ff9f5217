import { Permissions } from '@switchyard/permissions';
import { accessTo, loadChannel } from '../access';
import type { Actor } from '../actor';
import type { Channel, ChannelChanges } from '../entities';
import { Errors, isDuplicateKeyError } from '../errors';
import type { Deps } from '../ports';
import { publishChannelEvent } from './channel-events';
import { checkChannelName, checkChannelTexts } from './channel-rules';

/** The reference's ChannelPatch: only the fields sent change. */
export interface ChannelPatch {
  readonly display_name?: string;
  readonly name?: string;
  readonly header?: string;
  readonly purpose?: string;
}

const DEFAULT_CHANNEL = 'town-square';

/**
 * `PUT /channels/{id}/patch`: open channels need manage_public_channel_properties, private ones
 * manage_private_channel_properties; in a DM or GM any member may patch (403
 * `api.channel.patch_update_channel.forbidden.app_error` otherwise). town-square cannot be renamed. The
 * result is validated as on create, stored with a new update_at, and announced as `channel.updated`.
 */
export async function patchChannel(deps: Deps, actor: Actor, channelId: string, patch: ChannelPatch): Promise<Channel> {
  const channel = await loadChannel(deps, channelId);
  const access = accessTo(deps, actor, channel);
  if (channel.type === 'O') await access.require(Permissions.managePublicChannelProperties);
  else if (channel.type === 'P') await access.require(Permissions.managePrivateChannelProperties);
  else if (!(await deps.channelMembers.find(channel.id, actor.userId))) throw Errors.patchForbidden();
  if (channel.name === DEFAULT_CHANNEL && patch.name !== undefined && patch.name !== channel.name) throw Errors.renameDefaultChannel();

  const next = {
    display_name: patch.display_name ?? channel.display_name,
    name: patch.name ?? channel.name,
    header: patch.header ?? channel.header,
    purpose: patch.purpose ?? channel.purpose,
  };
  if (next.name !== channel.name) checkChannelName(next.name, channel.type);
  checkChannelTexts(next);
  const changes: ChannelChanges = { ...next, update_at: deps.clock.now() };
  let updated: Channel | undefined;
  try {
    updated = await deps.channels.update(channel.id, changes);
  } catch (error) {
    if (isDuplicateKeyError(error) && error.key === 'name') throw Errors.channelUpdateExists();
    throw error;
  }
  const result = updated ?? { ...channel, ...changes };
  await publishChannelEvent(deps, 'channel.updated', result);
  return result;
}

import { badRequest } from '@switchyard/errors';
import { Permissions } from '@switchyard/permissions';
import { accessTo, loadChannel } from '../access';
import type { Actor } from '../actor';
import type { Channel } from '../entities';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { patchChannel } from './patch-channel.usecase';

/** The Channel body of `PUT /channels/{id}` (the fields a full update reads). */
export interface ChannelUpdate {
  readonly display_name?: string;
  readonly name?: string;
  readonly header?: string;
  readonly purpose?: string;
  readonly type?: string;
}

/**
 * `PUT /channels/{id}` (mattermost-wire-3.md §3.4): the patch's permissions, then archived (400) and type
 * change (400) checks. `header` and `purpose` are always replaced (omitting them clears them);
 * `display_name` and `name` change only when non-empty.
 */
export async function updateChannel(deps: Deps, actor: Actor, channelId: string, body: ChannelUpdate): Promise<Channel> {
  const channel = await loadChannel(deps, channelId);
  const access = accessTo(deps, actor, channel);
  if (channel.type === 'O') await access.require(Permissions.managePublicChannelProperties);
  else if (channel.type === 'P') await access.require(Permissions.managePrivateChannelProperties);
  else if (!(await deps.channelMembers.find(channel.id, actor.userId))) throw Errors.patchForbidden();
  if (channel.delete_at !== 0) throw badRequest('api.channel.update_channel.deleted.app_error', 'The channel has been archived or deleted.');
  if (body.type !== undefined && body.type !== '' && body.type !== channel.type) {
    throw badRequest('api.channel.update_channel.typechange.app_error', 'Channel type cannot be updated.');
  }
  return patchChannel(deps, actor, channelId, {
    ...(body.display_name ? { display_name: body.display_name } : {}),
    ...(body.name ? { name: body.name } : {}),
    header: body.header ?? '',
    purpose: body.purpose ?? '',
  });
}

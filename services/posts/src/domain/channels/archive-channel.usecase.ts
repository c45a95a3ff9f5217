import { Permissions } from '@switchyard/permissions';
import { accessTo, loadChannel } from '../access';
import type { Actor } from '../actor';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { publishChannelEvent } from './channel-events';

/** `DELETE /channels/{id}`: archives an open or private channel (delete_public/private_channel). */
export async function archiveChannel(deps: Deps, actor: Actor, channelId: string): Promise<void> {
  const channel = await loadChannel(deps, channelId);
  if (channel.type === 'D' || channel.type === 'G') throw Errors.archiveDirect();
  await accessTo(deps, actor, channel).require(channel.type === 'O' ? Permissions.deletePublicChannel : Permissions.deletePrivateChannel);
  if (channel.delete_at !== 0) throw Errors.channelArchived();
  const now = deps.clock.now();
  const archived = await deps.channels.update(channelId, { delete_at: now, update_at: now });
  if (archived) await publishChannelEvent(deps, 'channel.deleted', archived);
}

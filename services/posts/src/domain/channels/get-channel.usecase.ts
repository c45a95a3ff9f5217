import { accessTo, loadChannel } from '../access';
import type { Actor } from '../actor';
import type { Channel } from '../entities';
import { Errors } from '../errors';
import type { Deps } from '../ports';

/** `GET /channels/{id}`: needs read access (403 otherwise); archived channels are returned. */
export async function getChannel(deps: Deps, actor: Actor, channelId: string): Promise<Channel> {
  const channel = await loadChannel(deps, channelId);
  await accessTo(deps, actor, channel).requireRead();
  return channel;
}

/**
 * `GET /teams/{team_id}/channels/name/{name}`: a private channel the caller cannot read is 404 (its
 * existence is not revealed), a public one 403; archived ones only with include_deleted.
 */
export async function getChannelByName(deps: Deps, actor: Actor, teamId: string, name: string, includeDeleted: boolean): Promise<Channel> {
  const channel = await deps.channels.findByName(teamId, name);
  if (!channel || (channel.delete_at !== 0 && !includeDeleted)) throw Errors.channelByNameNotFound();
  const access = accessTo(deps, actor, channel);
  if (await access.canRead()) return channel;
  if (channel.type !== 'O') throw Errors.channelByNameNotFound();
  return access.requireRead().then(() => channel);
}

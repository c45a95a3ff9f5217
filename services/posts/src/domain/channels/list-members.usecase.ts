import { accessTo, loadChannel } from '../access';
import type { Actor } from '../actor';
import type { ChannelMember } from '../entities';
import { Errors } from '../errors';
import type { Deps, Page } from '../ports';

/** `GET /channels/{id}/members`: needs read access. */
export async function listChannelMembers(deps: Deps, actor: Actor, channelId: string, page: Page): Promise<ChannelMember[]> {
  const channel = await loadChannel(deps, channelId);
  await accessTo(deps, actor, channel).requireRead();
  return deps.channelMembers.listByChannel(channelId, page);
}

/** `GET /channels/{id}/members/{user_id}`: needs read access; 404 when not a member. */
export async function getChannelMember(deps: Deps, actor: Actor, channelId: string, userId: string): Promise<ChannelMember> {
  const channel = await loadChannel(deps, channelId);
  await accessTo(deps, actor, channel).requireRead();
  const member = await deps.channelMembers.find(channelId, userId);
  if (!member) throw Errors.memberNotFound();
  return member;
}

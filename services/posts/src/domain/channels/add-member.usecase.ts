import { Permissions } from '@switchyard/permissions';
import { accessTo, loadChannel } from '../access';
import type { Actor } from '../actor';
import type { ChannelMember } from '../entities';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { publishChannelEvent } from './channel-events';
import { ensureMember, newMember } from './members';

/**
 * `POST /channels/{id}/members`: joining an open channel needs join_public_channels; adding someone
 * else needs manage_(public|private)_channel_members. The user must be an active member of the team.
 */
export async function addChannelMember(deps: Deps, actor: Actor, channelId: string, userId: string): Promise<ChannelMember> {
  const channel = await loadChannel(deps, channelId);
  if (channel.type === 'D' || channel.type === 'G') throw Errors.addMemberType();
  const access = accessTo(deps, actor, channel);
  const self = userId === actor.userId;
  if (self && channel.type === 'O') {
    if (!(await access.canOnTeam(Permissions.joinPublicChannels)) && !(await access.can(Permissions.managePublicChannelMembers))) {
      await access.require(Permissions.joinPublicChannels);
    }
  } else {
    await access.require(channel.type === 'O' ? Permissions.managePublicChannelMembers : Permissions.managePrivateChannelMembers);
  }
  if (channel.delete_at !== 0) throw Errors.channelArchived();
  const [user] = await deps.users.usersByIds([userId]);
  if (!user) throw Errors.addMemberUnknownUser();
  if ((await deps.users.teamRoles(channel.team_id, userId)) === undefined) throw Errors.addMemberNotInTeam();
  const { member, created } = await ensureMember(deps, newMember(channel.id, userId, deps.clock.now()));
  if (created) await publishChannelEvent(deps, 'channel.member_added', channel, userId, undefined, actor.userId);
  return member;
}

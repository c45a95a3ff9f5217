import { notFound } from '@switchyard/errors';
import { commonErrors } from '@switchyard/errors';
import { hasPermission, Permissions } from '@switchyard/permissions';
import type { Actor } from '../actor';
import type { Channel } from '../entities';
import { Errors, isDuplicateKeyError } from '../errors';
import type { Deps } from '../ports';
import { publishChannelEvent } from './channel-events';
import { checkChannelName, checkChannelTexts } from './channel-rules';
import { ensureMember, newMember } from './members';
import { newChannel } from './new-channel';

export interface CreateChannelCommand {
  readonly team_id: string;
  readonly name: string;
  readonly display_name: string;
  readonly type: string;
  readonly header: string;
  readonly purpose: string;
}

/** `POST /channels`: an open or private channel of a team; the creator joins it as channel admin. */
export async function createChannel(deps: Deps, actor: Actor, command: CreateChannelCommand): Promise<Channel> {
  if (command.type === 'D' || command.type === 'G') throw Errors.directChannelType();
  if (command.type !== 'O' && command.type !== 'P') throw Errors.channelType();
  checkChannelName(command.name, command.type);
  checkChannelTexts(command);
  const permission = command.type === 'O' ? Permissions.createPublicChannel : Permissions.createPrivateChannel;
  if (!hasPermission(actor.roles, permission)) {
    const teamRoles = (await deps.users.teamRoles(command.team_id, actor.userId)) ?? '';
    if (!hasPermission(teamRoles, permission)) throw commonErrors.permissions(actor.userId, permission);
  }
  const teamName = await deps.users.teamName(command.team_id);
  if (teamName === undefined) throw notFound('app.team.get.find.app_error', 'Unable to find the existing team.');
  const now = deps.clock.now();
  const channel = newChannel(
    { team_id: command.team_id, team_name: teamName, type: command.type, display_name: command.display_name, name: command.name, header: command.header, purpose: command.purpose, creator_id: actor.userId },
    now,
  );
  try {
    await deps.channels.insert(channel);
  } catch (error) {
    if (isDuplicateKeyError(error) && error.key === 'name') throw Errors.channelExists();
    throw error;
  }
  await ensureMember(deps, newMember(channel.id, actor.userId, now, true));
  await publishChannelEvent(deps, 'channel.created', channel);
  await publishChannelEvent(deps, 'channel.member_added', channel, actor.userId);
  return channel;
}

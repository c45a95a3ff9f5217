import { commonErrors } from '@switchyard/errors';
import { hasPermission, Permissions } from '@switchyard/permissions';
import type { Actor } from './actor';
import { channelMemberRoles, type Channel } from './entities';
import { Errors } from './errors';
import type { Deps } from './ports';

/**
 * Channel-scoped permission checks as the reference does them: system roles first, then the caller's
 * channel roles (when a member), then their team roles (asked of users-bots only when still needed).
 */
export class ChannelAccess {
  private teamRolesValue: Promise<string> | undefined;
  private channelRolesValue: Promise<string> | undefined;

  public constructor(private readonly deps: Pick<Deps, 'users' | 'cachedMembers'>, public readonly actor: Actor, public readonly channel: Channel) {}

  public channelRoles(): Promise<string> {
    this.channelRolesValue ??= this.deps.cachedMembers.cachedMember(this.channel.id, this.actor.userId).then((m) => (m ? channelMemberRoles(m) : ''));
    return this.channelRolesValue;
  }

  public teamRoles(): Promise<string> {
    if (this.channel.team_id === '') return Promise.resolve('');
    this.teamRolesValue ??= this.deps.users.teamRoles(this.channel.team_id, this.actor.userId).then((r) => r ?? '');
    return this.teamRolesValue;
  }

  public async isMember(): Promise<boolean> {
    return (await this.channelRoles()) !== '';
  }

  /** System, channel, then team roles. */
  public async can(permission: string): Promise<boolean> {
    if (hasPermission(this.actor.roles, permission)) return true;
    if (hasPermission(await this.channelRoles(), permission)) return true;
    return hasPermission(await this.teamRoles(), permission);
  }

  /** System or team roles only (team-scoped permissions such as create_post_public). */
  public async canOnTeam(permission: string): Promise<boolean> {
    if (hasPermission(this.actor.roles, permission)) return true;
    return hasPermission(await this.teamRoles(), permission);
  }

  public async require(permission: string): Promise<void> {
    if (!(await this.can(permission))) throw commonErrors.permissions(this.actor.userId, permission);
  }

  /** Members read (read_channel); open channels are readable with read_public_channel on the team. */
  public async canRead(): Promise<boolean> {
    if (await this.can(Permissions.readChannel)) return true;
    return this.channel.type === 'O' && (await this.canOnTeam(Permissions.readPublicChannel));
  }

  public async requireRead(): Promise<void> {
    if (!(await this.canRead())) throw commonErrors.permissions(this.actor.userId, Permissions.readChannel);
  }

  /** create_post on the channel, or create_post_public (system or team) for open channels. */
  public async canPost(): Promise<boolean> {
    if (await this.can(Permissions.createPost)) return true;
    return this.channel.type === 'O' && (await this.canOnTeam(Permissions.createPostPublic));
  }

  public async requirePost(): Promise<void> {
    if (!(await this.canPost())) throw commonErrors.permissions(this.actor.userId, Permissions.createPost);
  }
}

export async function loadChannel(deps: Pick<Deps, 'channels'>, channelId: string): Promise<Channel> {
  const channel = await deps.channels.findById(channelId);
  if (!channel) throw Errors.channelNotFound();
  return channel;
}

export function accessTo(deps: Pick<Deps, 'users' | 'cachedMembers'>, actor: Actor, channel: Channel): ChannelAccess {
  return new ChannelAccess(deps, actor, channel);
}

/**
 * Own posts: `own` on the channel, or the right to post there now (a non-member bot posting with
 * system_post_all / system_post_all_public manages what it posted); others' posts: `others`.
 */
export async function requireOwnOrOthers(access: ChannelAccess, isOwn: boolean, own: string, others: string): Promise<void> {
  if (!isOwn) return access.require(others);
  if ((await access.can(own)) || (await access.canPost())) return;
  throw commonErrors.permissions(access.actor.userId, own);
}

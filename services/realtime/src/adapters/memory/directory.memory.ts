import type { InternalUser, ResolvedSession, UserUpdatedCopies } from '@switchyard/contracts';
import type { MembershipSource, SessionSource, UserSource } from '../../domain/ports';

/** Sessions, memberships and users held in memory (unit tests; a deployment without the other services). */
export class MemoryDirectory implements SessionSource, MembershipSource, UserSource {
  private readonly sessions = new Map<string, ResolvedSession>();
  private readonly channels = new Map<string, Set<string>>();
  private readonly teams = new Map<string, Set<string>>();
  private readonly users = new Map<string, InternalUser>();
  private readonly emails = new Map<string, string>();
  /** How many member-set lookups were answered (tests check the cache with it). */
  public memberLookups = 0;

  public addSession(token: string, session: ResolvedSession): void {
    this.sessions.set(token, session);
  }

  public revoke(token: string): void {
    this.sessions.delete(token);
  }

  public addUser(user: InternalUser, email = ''): void {
    this.users.set(user.id, user);
    this.emails.set(user.id, email);
  }

  /** A channel (with no members yet). */
  public addChannel(channelId: string): void {
    if (!this.channels.has(channelId)) this.channels.set(channelId, new Set());
  }

  public addChannelMember(channelId: string, userId: string): void {
    let members = this.channels.get(channelId);
    if (!members) {
      members = new Set();
      this.channels.set(channelId, members);
    }
    members.add(userId);
  }

  public removeChannelMember(channelId: string, userId: string): void {
    this.channels.get(channelId)?.delete(userId);
  }

  public addTeamMember(teamId: string, userId: string): void {
    let members = this.teams.get(teamId);
    if (!members) {
      members = new Set();
      this.teams.set(teamId, members);
    }
    members.add(userId);
  }

  public async resolve(token: string): Promise<ResolvedSession | undefined> {
    return this.sessions.get(token);
  }

  public async channelMemberIds(channelId: string): Promise<readonly string[] | undefined> {
    this.memberLookups += 1;
    const members = this.channels.get(channelId);
    return members ? [...members] : undefined;
  }

  public async isTeamMember(teamId: string, userId: string): Promise<boolean> {
    return this.teams.get(teamId)?.has(userId) ?? false;
  }

  /** The copies users-bots would present: the internal fields, e-mail shown to admins and the user only. */
  public async userUpdatedCopies(id: string): Promise<UserUpdatedCopies | undefined> {
    const user = this.users.get(id);
    if (!user) return undefined;
    const base = {
      id: user.id,
      delete_at: user.deleteAt,
      username: user.username,
      nickname: user.nickname,
      first_name: user.firstName,
      last_name: user.lastName,
      roles: user.roles,
      is_bot: user.isBot,
    };
    const email = this.emails.get(id) ?? '';
    return { admin: { ...base, email }, sanitized: { ...base, email: '' }, self: { ...base, email } };
  }

  public async usersByIds(ids: readonly string[]): Promise<readonly InternalUser[]> {
    return ids.flatMap((id) => {
      const user = this.users.get(id);
      return user ? [user] : [];
    });
  }
}

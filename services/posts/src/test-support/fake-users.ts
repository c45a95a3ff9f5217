import type { InternalTeam, InternalUser } from '@switchyard/contracts';
import type { UsersDirectory } from '../domain/ports';
import type { UserNames } from '../domain/search/user-names.port';

/** users-bots stand-in: users, teams and team memberships set by the test. */
export class FakeUsers implements UsersDirectory, UserNames {
  public readonly users = new Map<string, InternalUser>();
  public readonly teams = new Map<string, string>();
  public readonly members = new Map<string, string>();
  public calls = 0;

  public addUser(id: string, username: string, isBot = false, roles = 'system_user'): InternalUser {
    const user: InternalUser = { id, username, roles, isBot, deleteAt: 0, firstName: '', lastName: '', nickname: '' };
    this.users.set(id, user);
    return user;
  }

  public addTeam(id: string, name: string): void {
    this.teams.set(id, name);
  }

  public join(teamId: string, userId: string, roles = 'team_user'): void {
    this.members.set(`${teamId}:${userId}`, roles);
  }

  public async teamRoles(teamId: string, userId: string): Promise<string | undefined> {
    this.calls += 1;
    return this.members.get(`${teamId}:${userId}`);
  }

  public async usersByIds(ids: readonly string[]): Promise<InternalUser[]> {
    this.calls += 1;
    return ids.flatMap((id) => {
      const user = this.users.get(id);
      return user ? [user] : [];
    });
  }

  public async teamMembersAmong(teamId: string | undefined, userIds: readonly string[]): Promise<ReadonlySet<string>> {
    this.calls += 1;
    const keys = [...this.members.keys()];
    return new Set(userIds.filter((id) => (teamId !== undefined ? this.members.has(`${teamId}:${id}`) : keys.some((k) => k.endsWith(`:${id}`)))));
  }

  public async teamIdByName(name: string): Promise<string | undefined> {
    this.calls += 1;
    for (const [id, teamName] of this.teams) if (teamName === name) return id;
    return undefined;
  }

  public async teamName(teamId: string): Promise<string | undefined> {
    this.calls += 1;
    return this.teams.get(teamId);
  }

  public async team(teamId: string): Promise<InternalTeam | undefined> {
    this.calls += 1;
    const name = this.teams.get(teamId);
    return name === undefined ? undefined : { id: teamId, name, display_name: name, type: 'O', delete_at: 0, update_at: 0 };
  }

  public async idsByUsernames(usernames: readonly string[]): Promise<ReadonlyMap<string, string>> {
    this.calls += 1;
    const wanted = new Set(usernames.map((u) => u.toLowerCase()));
    return new Map([...this.users.values()].filter((u) => wanted.has(u.username.toLowerCase())).map((u) => [u.username.toLowerCase(), u.id]));
  }
}

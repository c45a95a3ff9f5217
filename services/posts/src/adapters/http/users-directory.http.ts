import { InternalPaths, Services, type InternalTeam, type InternalUser } from '@switchyard/contracts';
import { isAppError } from '@switchyard/errors';
import { callJson, serviceCredential, type Keys, type ServiceCredential, type ServiceTransport } from '@switchyard/http-kit';
import type { UsersDirectory } from '../../domain/ports';

interface TeamMemberWire {
  readonly roles?: string;
  readonly delete_at?: number;
}

/** How long a user's username/bot flag and a team's name are reused (they change rarely; events are not needed). */
const CACHE_MS = 10_000;

/** users-bots through its internal API. */
export class HttpUsersDirectory implements UsersDirectory {
  private readonly as: ServiceCredential;
  private readonly users = new Map<string, { user: InternalUser; at: number }>();
  private readonly teams = new Map<string, { team: InternalTeam; at: number }>();
  /** `${teamId or '*'}:${userId}` → member: a filter on authors (search's `from:`), never an access decision. */
  private readonly memberships = new Map<string, { member: boolean; at: number }>();

  public constructor(private readonly transport: ServiceTransport, secret: Keys, private readonly now: () => number = Date.now) {
    this.as = serviceCredential(Services.posts, secret);
  }

  public async teamRoles(teamId: string, userId: string): Promise<string | undefined> {
    if (teamId === '') return undefined;
    try {
      const member = await callJson<TeamMemberWire>(this.transport, Services.usersBots, {
        method: 'GET',
        path: `${InternalPaths.teamMember}/${encodeURIComponent(teamId)}/members/${encodeURIComponent(userId)}`,
        as: this.as,
      });
      if (!member || (member.delete_at ?? 0) !== 0) return undefined;
      return member.roles ?? '';
    } catch (error) {
      if (isAppError(error) && (error.statusCode === 404 || error.statusCode === 400)) return undefined;
      throw error;
    }
  }

  public async usersByIds(ids: readonly string[]): Promise<InternalUser[]> {
    const now = this.now();
    const missing = ids.filter((id) => {
      const hit = this.users.get(id);
      return !hit || now - hit.at > CACHE_MS;
    });
    if (missing.length > 0) {
      const found = await callJson<InternalUser[]>(this.transport, Services.usersBots, { method: 'POST', path: InternalPaths.usersByIds, as: this.as, body: { ids: missing } });
      for (const user of found ?? []) this.users.set(user.id, { user, at: now });
      if (this.users.size > 10_000) this.users.clear();
    }
    return ids.flatMap((id) => {
      const hit = this.users.get(id);
      return hit ? [hit.user] : [];
    });
  }

  public async teamMembersAmong(teamId: string | undefined, userIds: readonly string[]): Promise<ReadonlySet<string>> {
    const now = this.now();
    const key = (userId: string): string => `${teamId ?? '*'}:${userId}`;
    const unique = [...new Set(userIds)];
    const missing = unique.filter((id) => {
      const hit = this.memberships.get(key(id));
      return !hit || now - hit.at > CACHE_MS;
    });
    if (missing.length > 0) {
      const body = { ...(teamId !== undefined ? { team_id: teamId } : {}), user_ids: missing.slice(0, 100) };
      const members = new Set(await callJson<string[]>(this.transport, Services.usersBots, { method: 'POST', path: InternalPaths.teamMembersAmong, as: this.as, body }));
      if (this.memberships.size > 10_000) this.memberships.clear();
      for (const id of body.user_ids) this.memberships.set(key(id), { member: members.has(id), at: now });
    }
    return new Set(unique.filter((id) => this.memberships.get(key(id))?.member === true));
  }

  public async teamIdByName(name: string): Promise<string | undefined> {
    const team = await this.lookupTeam(InternalPaths.teamByName(name));
    if (team) this.teams.set(team.id, { team, at: this.now() });
    return team?.id;
  }

  public async teamName(teamId: string): Promise<string | undefined> {
    return (await this.team(teamId))?.name;
  }

  public async team(teamId: string): Promise<InternalTeam | undefined> {
    const hit = this.teams.get(teamId);
    if (hit && this.now() - hit.at < CACHE_MS) return hit.team;
    const team = await this.lookupTeam(InternalPaths.team(teamId));
    if (!team) return undefined;
    if (this.teams.size > 10_000) this.teams.clear();
    this.teams.set(teamId, { team, at: this.now() });
    return team;
  }

  /** users-bots' internal team route; undefined for an unknown (404) or malformed (400) id or name. */
  private async lookupTeam(path: string): Promise<InternalTeam | undefined> {
    try {
      const team = await callJson<InternalTeam>(this.transport, Services.usersBots, { method: 'GET', path, as: this.as });
      return typeof team?.id === 'string' && typeof team.name === 'string' ? team : undefined;
    } catch (error) {
      if (isAppError(error) && (error.statusCode === 404 || error.statusCode === 400)) return undefined;
      throw error;
    }
  }
}

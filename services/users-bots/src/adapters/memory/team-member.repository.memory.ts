import type { TeamMember, TeamMemberChanges } from '../../domain/entities';
import { DuplicateKeyError } from '../../domain/errors';
import type { Page, TeamMemberRepository } from '../../domain/ports';
import { copy, paginate } from './memory-utils';

const keyOf = (teamId: string, userId: string): string => `${teamId}:${userId}`;
const byCreate = (a: TeamMember, b: TeamMember): number => a.createAt - b.createAt || (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0);

export class MemoryTeamMemberRepository implements TeamMemberRepository {
  private readonly byKey = new Map<string, TeamMember>();

  public async insert(member: TeamMember): Promise<void> {
    const key = keyOf(member.teamId, member.userId);
    if (this.byKey.has(key)) throw new DuplicateKeyError('member');
    this.byKey.set(key, copy(member));
  }

  public async update(teamId: string, userId: string, changes: TeamMemberChanges): Promise<TeamMember | undefined> {
    const key = keyOf(teamId, userId);
    const member = this.byKey.get(key);
    if (!member) return undefined;
    const next: TeamMember = { ...member, ...copy(changes), teamId, userId };
    this.byKey.set(key, next);
    return copy(next);
  }

  public async find(teamId: string, userId: string): Promise<TeamMember | undefined> {
    const member = this.byKey.get(keyOf(teamId, userId));
    return member ? copy(member) : undefined;
  }

  public async listByTeam(teamId: string, page: Page): Promise<TeamMember[]> {
    return paginate(this.active().filter((m) => m.teamId === teamId).sort(byCreate), page).map(copy);
  }

  public async listByUser(userId: string): Promise<TeamMember[]> {
    return this.active().filter((m) => m.userId === userId).sort(byCreate).map(copy);
  }

  public async countActive(teamId: string): Promise<number> {
    return this.active().filter((m) => m.teamId === teamId).length;
  }

  public async userIdsInTeam(teamId: string): Promise<string[]> {
    return this.active().filter((m) => m.teamId === teamId).map((m) => m.userId);
  }

  public async userIdsWithAnyTeam(): Promise<string[]> {
    return [...new Set(this.active().map((m) => m.userId))];
  }

  public async deleteByUser(userId: string): Promise<number> {
    const keys = [...this.byKey.entries()].filter(([, m]) => m.userId === userId).map(([k]) => k);
    for (const key of keys) this.byKey.delete(key);
    return keys.length;
  }

  private active(): TeamMember[] {
    return [...this.byKey.values()].filter((m) => m.deleteAt === 0);
  }
}

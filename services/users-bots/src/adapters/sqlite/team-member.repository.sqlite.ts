import { definedChanges, fromDoc, fromDocs, pageWindow, type DocRow, type SqliteStore } from '@switchyard/sqlite-kit';
import type { TeamMember, TeamMemberChanges } from '../../domain/entities';
import type { Page, TeamMemberRepository } from '../../domain/ports';
import { mapDuplicates } from './sqlite-support';

const UNIQUE_KEYS = { 'team_id,user_id': 'member' };

export class SqliteTeamMemberRepository implements TeamMemberRepository {
  private readonly insertRow;
  private readonly replaceRow;
  private readonly one;
  private readonly byTeam;
  private readonly byUser;
  private readonly countTeam;
  private readonly idsInTeam;
  private readonly idsWithTeam;
  private readonly deleteUser;

  public constructor(private readonly store: SqliteStore) {
    const db = store.db;
    this.insertRow = db.prepare('INSERT INTO ub_team_members (team_id, user_id, create_at, delete_at, doc) VALUES (?, ?, ?, ?, ?)');
    this.replaceRow = db.prepare('UPDATE ub_team_members SET delete_at = ?, doc = ? WHERE team_id = ? AND user_id = ?');
    this.one = db.prepare<[string, string], DocRow>('SELECT doc FROM ub_team_members WHERE team_id = ? AND user_id = ?');
    this.byTeam = db.prepare<[string, number, number], DocRow>('SELECT doc FROM ub_team_members WHERE team_id = ? AND delete_at = 0 ORDER BY create_at, user_id LIMIT ? OFFSET ?');
    this.byUser = db.prepare<[string], DocRow>('SELECT doc FROM ub_team_members WHERE user_id = ? AND delete_at = 0 ORDER BY create_at, user_id');
    this.countTeam = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM ub_team_members WHERE team_id = ? AND delete_at = 0');
    this.idsInTeam = db.prepare<[string], { user_id: string }>('SELECT user_id FROM ub_team_members WHERE team_id = ? AND delete_at = 0 ORDER BY create_at, user_id');
    this.idsWithTeam = db.prepare<[], { user_id: string }>('SELECT DISTINCT user_id FROM ub_team_members WHERE delete_at = 0');
    this.deleteUser = db.prepare('DELETE FROM ub_team_members WHERE user_id = ?');
  }

  public async insert(member: TeamMember): Promise<void> {
    await this.store.write(() =>
      mapDuplicates(UNIQUE_KEYS, () => this.insertRow.run(member.teamId, member.userId, member.createAt, member.deleteAt, JSON.stringify(member))),
    );
  }

  public async update(teamId: string, userId: string, changes: TeamMemberChanges): Promise<TeamMember | undefined> {
    return this.store.write(() => {
      const current = fromDoc<TeamMember>(this.one.get(teamId, userId));
      if (!current) return undefined;
      const next: TeamMember = { ...current, ...definedChanges(changes, ['teamId', 'userId', 'createAt']), teamId, userId };
      this.replaceRow.run(next.deleteAt, JSON.stringify(next), teamId, userId);
      return next;
    });
  }

  public async find(teamId: string, userId: string): Promise<TeamMember | undefined> {
    return fromDoc<TeamMember>(this.one.get(teamId, userId));
  }

  public async listByTeam(teamId: string, page: Page): Promise<TeamMember[]> {
    const window = pageWindow(page);
    return window ? fromDocs<TeamMember>(this.byTeam.all(teamId, window.limit, window.offset)) : [];
  }

  public async listByUser(userId: string): Promise<TeamMember[]> {
    return fromDocs<TeamMember>(this.byUser.all(userId));
  }

  public async countActive(teamId: string): Promise<number> {
    return this.countTeam.get(teamId)?.n ?? 0;
  }

  public async userIdsInTeam(teamId: string): Promise<string[]> {
    return this.idsInTeam.all(teamId).map((r) => r.user_id);
  }

  public async userIdsWithAnyTeam(): Promise<string[]> {
    return this.idsWithTeam.all().map((r) => r.user_id);
  }

  public async deleteByUser(userId: string): Promise<number> {
    return this.store.write(() => this.deleteUser.run(userId).changes);
  }
}

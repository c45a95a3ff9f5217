import { fromDoc, fromDocs, uniqueViolation, type DocRow, type SqliteStore } from '@switchyard/sqlite-kit';
import type { Command } from '../../domain/commands/command';
import type { CommandRepository } from '../../domain/ports';

function columns(c: Command): unknown[] {
  return [c.id, c.teamId, c.creatorId, c.createAt, c.deleteAt, JSON.stringify(c)];
}

export class SqliteCommandRepository implements CommandRepository {
  private readonly insertRow;
  private readonly replaceRow;
  private readonly byId;
  private readonly byTeam;
  private readonly byTeamAndCreator;

  public constructor(private readonly store: SqliteStore) {
    const db = store.db;
    this.insertRow = db.prepare('INSERT INTO od_commands (id, team_id, creator_id, create_at, delete_at, doc) VALUES (?, ?, ?, ?, ?, ?)');
    this.replaceRow = db.prepare('UPDATE od_commands SET id = ?, team_id = ?, creator_id = ?, create_at = ?, delete_at = ?, doc = ? WHERE id = ?');
    this.byId = db.prepare<[string], DocRow>('SELECT doc FROM od_commands WHERE id = ?');
    this.byTeam = db.prepare<[string], DocRow>('SELECT doc FROM od_commands WHERE team_id = ? AND delete_at = 0 ORDER BY create_at, id');
    this.byTeamAndCreator = db.prepare<[string, string], DocRow>('SELECT doc FROM od_commands WHERE team_id = ? AND delete_at = 0 AND creator_id = ? ORDER BY create_at, id');
  }

  public async insert(command: Command): Promise<void> {
    await this.store.write(() => {
      try {
        this.insertRow.run(...columns(command));
      } catch (error) {
        throw uniqueViolation(error) === undefined ? error : new Error(`duplicate command ${command.id}`);
      }
    });
  }

  public async replace(command: Command): Promise<boolean> {
    return this.store.write(() => this.replaceRow.run(...columns(command), command.id).changes === 1);
  }

  public async findById(id: string): Promise<Command | undefined> {
    return fromDoc<Command>(this.byId.get(id));
  }

  public async listByTeam(teamId: string, creatorId?: string): Promise<Command[]> {
    return fromDocs<Command>(creatorId === undefined ? this.byTeam.all(teamId) : this.byTeamAndCreator.all(teamId, creatorId));
  }
}

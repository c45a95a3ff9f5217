import { fromDoc, inKeyOrder, jsonList, type DocRow, type SqliteStore } from '@switchyard/sqlite-kit';
import type { Team } from '../../domain/entities';
import type { TeamRepository } from '../../domain/ports';
import { mapDuplicates } from './sqlite-support';

const UNIQUE_KEYS = { id: 'id', name: 'name' };

export class SqliteTeamRepository implements TeamRepository {
  private readonly insertRow;
  private readonly byId;
  private readonly byName;
  private readonly byIds;

  public constructor(private readonly store: SqliteStore) {
    const db = store.db;
    this.insertRow = db.prepare('INSERT INTO ub_teams (id, name, doc) VALUES (?, ?, ?)');
    this.byId = db.prepare<[string], DocRow>('SELECT doc FROM ub_teams WHERE id = ?');
    this.byName = db.prepare<[string], DocRow>('SELECT doc FROM ub_teams WHERE name = ?');
    this.byIds = db.prepare<[string], DocRow & { k: string }>('SELECT id AS k, doc FROM ub_teams WHERE id IN (SELECT value FROM json_each(?))');
  }

  public async insert(team: Team): Promise<void> {
    await this.store.write(() => mapDuplicates(UNIQUE_KEYS, () => this.insertRow.run(team.id, team.name, JSON.stringify(team))));
  }

  public async findById(id: string): Promise<Team | undefined> {
    return fromDoc<Team>(this.byId.get(id));
  }

  public async findByName(name: string): Promise<Team | undefined> {
    return fromDoc<Team>(this.byName.get(name));
  }

  public async findByIds(ids: readonly string[]): Promise<Team[]> {
    if (ids.length === 0) return [];
    return inKeyOrder<Team>(ids, this.byIds.all(jsonList(ids)));
  }
}

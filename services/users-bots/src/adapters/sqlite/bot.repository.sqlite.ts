import { definedChanges, fromDoc, fromDocs, inKeyOrder, jsonList, pageWindow, type DocRow, type SqliteStore } from '@switchyard/sqlite-kit';
import type { Bot, BotChanges } from '../../domain/entities';
import type { BotQuery, BotRepository } from '../../domain/ports';
import { mapDuplicates } from './sqlite-support';

const UNIQUE_KEYS = { id: 'id' };

export class SqliteBotRepository implements BotRepository {
  private readonly insertRow;
  private readonly replaceRow;
  private readonly byId;
  private readonly byIds;
  private readonly byOwner;
  private readonly deleteRow;

  public constructor(private readonly store: SqliteStore) {
    const db = store.db;
    this.insertRow = db.prepare('INSERT INTO ub_bots (id, owner_id, create_at, delete_at, doc) VALUES (?, ?, ?, ?, ?)');
    this.replaceRow = db.prepare('UPDATE ub_bots SET owner_id = ?, delete_at = ?, doc = ? WHERE id = ?');
    this.byId = db.prepare<[string], DocRow>('SELECT doc FROM ub_bots WHERE id = ?');
    this.byIds = db.prepare<[string], DocRow & { k: string }>('SELECT id AS k, doc FROM ub_bots WHERE id IN (SELECT value FROM json_each(?))');
    this.byOwner = db.prepare<[string], DocRow>('SELECT doc FROM ub_bots WHERE owner_id = ? ORDER BY create_at, id');
    this.deleteRow = db.prepare('DELETE FROM ub_bots WHERE id = ?');
  }

  public async insert(bot: Bot): Promise<void> {
    await this.store.write(() => mapDuplicates(UNIQUE_KEYS, () => this.insertRow.run(bot.id, bot.ownerId, bot.createAt, bot.deleteAt, JSON.stringify(bot))));
  }

  public async update(id: string, changes: BotChanges): Promise<Bot | undefined> {
    return this.store.write(() => {
      const current = fromDoc<Bot>(this.byId.get(id));
      if (!current) return undefined;
      const next: Bot = { ...current, ...definedChanges(changes, ['id', 'createAt']), id };
      this.replaceRow.run(next.ownerId, next.deleteAt, JSON.stringify(next), id);
      return next;
    });
  }

  public async delete(id: string): Promise<boolean> {
    return this.store.write(() => this.deleteRow.run(id).changes === 1);
  }

  public async findById(id: string): Promise<Bot | undefined> {
    return fromDoc<Bot>(this.byId.get(id));
  }

  public async findByIds(ids: readonly string[]): Promise<Bot[]> {
    if (ids.length === 0) return [];
    return inKeyOrder<Bot>(ids, this.byIds.all(jsonList(ids)));
  }

  public async list(query: BotQuery): Promise<Bot[]> {
    const window = pageWindow(query);
    if (!window || query.ownerIds?.length === 0) return [];
    const where: string[] = [];
    const params: unknown[] = [];
    if (!query.includeDeleted) where.push('delete_at = 0');
    if (query.ownerId !== undefined) {
      where.push('owner_id = ?');
      params.push(query.ownerId);
    }
    if (query.ownerIds) {
      where.push('owner_id IN (SELECT value FROM json_each(?))');
      params.push(jsonList(query.ownerIds));
    }
    const sql = `SELECT doc FROM ub_bots ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY create_at, id LIMIT ? OFFSET ?`;
    return fromDocs<Bot>(this.store.db.prepare<unknown[], DocRow>(sql).all(...params, window.limit, window.offset));
  }

  public async findByOwner(ownerId: string): Promise<Bot[]> {
    return fromDocs<Bot>(this.byOwner.all(ownerId));
  }
}

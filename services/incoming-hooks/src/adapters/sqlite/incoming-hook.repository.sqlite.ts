import { definedChanges, fromDoc, fromDocs, pageWindow, uniqueViolation, type DocRow, type SqliteStore } from '@switchyard/sqlite-kit';
import type { IncomingHook, IncomingHookChanges } from '../../domain/entities';
import { DuplicateKeyError } from '../../domain/errors';
import type { HookQuery, IncomingHookRepository } from '../../domain/ports';

const FILTERS = ['team_id = ?', 'user_id = ?'] as const;

function filterOf(query: Omit<HookQuery, 'page' | 'perPage'>): { where: string; params: string[] } {
  const where = ['delete_at = 0'];
  const params: string[] = [];
  if (query.teamId !== undefined) {
    where.push(FILTERS[0]);
    params.push(query.teamId);
  }
  if (query.userId !== undefined) {
    where.push(FILTERS[1]);
    params.push(query.userId);
  }
  return { where: where.join(' AND '), params };
}

export class SqliteIncomingHookRepository implements IncomingHookRepository {
  private readonly insertRow;
  private readonly replaceRow;
  private readonly byId;

  public constructor(private readonly store: SqliteStore) {
    const db = store.db;
    this.insertRow = db.prepare('INSERT INTO ih_hooks (id, team_id, user_id, create_at, delete_at, doc) VALUES (?, ?, ?, ?, ?, ?)');
    this.replaceRow = db.prepare('UPDATE ih_hooks SET delete_at = ?, doc = ? WHERE id = ?');
    this.byId = db.prepare<[string], DocRow>('SELECT doc FROM ih_hooks WHERE id = ?');
  }

  public async insert(hook: IncomingHook): Promise<void> {
    await this.store.write(() => {
      try {
        this.insertRow.run(hook.id, hook.teamId, hook.userId, hook.createAt, hook.deleteAt, JSON.stringify(hook));
      } catch (error) {
        throw uniqueViolation(error) === undefined ? error : new DuplicateKeyError('id');
      }
    });
  }

  public async update(id: string, changes: IncomingHookChanges): Promise<IncomingHook | undefined> {
    return this.store.write(() => {
      const current = fromDoc<IncomingHook>(this.byId.get(id));
      if (!current) return undefined;
      const next: IncomingHook = { ...current, ...definedChanges(changes, ['id', 'createAt', 'userId', 'teamId']) };
      this.replaceRow.run(next.deleteAt, JSON.stringify(next), id);
      return next;
    });
  }

  public async findById(id: string): Promise<IncomingHook | undefined> {
    return fromDoc<IncomingHook>(this.byId.get(id));
  }

  public async list(query: HookQuery): Promise<IncomingHook[]> {
    const window = pageWindow(query);
    if (!window) return [];
    const { where, params } = filterOf(query);
    const rows = this.store.db.prepare<unknown[], DocRow>(`SELECT doc FROM ih_hooks WHERE ${where} ORDER BY create_at, id LIMIT ? OFFSET ?`).all(...params, window.limit, window.offset);
    return fromDocs<IncomingHook>(rows);
  }

  public async count(query: Omit<HookQuery, 'page' | 'perPage'>): Promise<number> {
    const { where, params } = filterOf(query);
    return this.store.db.prepare<unknown[], { n: number }>(`SELECT count(*) AS n FROM ih_hooks WHERE ${where}`).get(...params)?.n ?? 0;
  }
}

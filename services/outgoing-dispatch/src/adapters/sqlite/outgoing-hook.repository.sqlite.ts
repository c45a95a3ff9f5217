import { fromDoc, fromDocs, pageWindow, uniqueViolation, type DocRow, type SqliteStore } from '@switchyard/sqlite-kit';
import { withHookDefaults, type OutgoingHook } from '../../domain/entities';
import type { HookQuery, OutgoingHookRepository } from '../../domain/ports';

function columns(h: OutgoingHook): unknown[] {
  return [h.id, h.teamId, h.channelId, h.creatorId, h.createAt, h.deleteAt, JSON.stringify(h)];
}

export class SqliteOutgoingHookRepository implements OutgoingHookRepository {
  private readonly insertRow;
  private readonly replaceRow;
  private readonly byId;
  private readonly byTeam;
  private readonly botHooks;

  public constructor(private readonly store: SqliteStore) {
    const db = store.db;
    this.insertRow = db.prepare('INSERT INTO od_hooks (id, team_id, channel_id, creator_id, create_at, delete_at, doc) VALUES (?, ?, ?, ?, ?, ?, ?)');
    this.replaceRow = db.prepare('UPDATE od_hooks SET id = ?, team_id = ?, channel_id = ?, creator_id = ?, create_at = ?, delete_at = ?, doc = ? WHERE id = ?');
    this.byId = db.prepare<[string], DocRow>('SELECT doc FROM od_hooks WHERE id = ?');
    this.byTeam = db.prepare<[string], DocRow>('SELECT doc FROM od_hooks WHERE team_id = ? AND delete_at = 0 ORDER BY create_at, id');
    // Few hooks are bot hooks and the list is cached (CachingHookRepository): a scan of the live hooks is enough.
    this.botHooks = db.prepare<[], DocRow>("SELECT doc FROM od_hooks WHERE delete_at = 0 AND coalesce(json_extract(doc, '$.botUserId'), '') <> '' ORDER BY create_at, id");
  }

  public async insert(hook: OutgoingHook): Promise<void> {
    await this.store.write(() => {
      try {
        this.insertRow.run(...columns(hook));
      } catch (error) {
        throw uniqueViolation(error) === undefined ? error : new Error(`duplicate outgoing hook ${hook.id}`);
      }
    });
  }

  public async replace(hook: OutgoingHook): Promise<boolean> {
    return this.store.write(() => this.replaceRow.run(...columns(hook), hook.id).changes === 1);
  }

  public async findById(id: string): Promise<OutgoingHook | undefined> {
    const hook = fromDoc<OutgoingHook>(this.byId.get(id));
    return hook ? withHookDefaults(hook) : undefined;
  }

  public async list(query: HookQuery): Promise<OutgoingHook[]> {
    const window = pageWindow(query);
    if (!window) return [];
    const where = ['delete_at = 0'];
    const params: unknown[] = [];
    for (const [column, value] of [
      ['team_id', query.teamId],
      ['channel_id', query.channelId],
      ['creator_id', query.creatorId],
    ] as const) {
      if (value === undefined) continue;
      where.push(`${column} = ?`);
      params.push(value);
    }
    const sql = `SELECT doc FROM od_hooks WHERE ${where.join(' AND ')} ORDER BY create_at, id LIMIT ? OFFSET ?`;
    return fromDocs<OutgoingHook>(this.store.db.prepare<unknown[], DocRow>(sql).all(...params, window.limit, window.offset)).map(withHookDefaults);
  }

  public async findBotHooks(): Promise<OutgoingHook[]> {
    return fromDocs<OutgoingHook>(this.botHooks.all()).map(withHookDefaults);
  }

  public async findByTeam(teamId: string): Promise<OutgoingHook[]> {
    return fromDocs<OutgoingHook>(this.byTeam.all(teamId)).map(withHookDefaults);
  }
}

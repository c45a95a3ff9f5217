import type { Migration, SqliteStatement, SqliteStore } from '@switchyard/sqlite-kit';
import type { StoredStatus } from '../../domain/statuses/status';
import type { StatusStore } from '../../domain/statuses/status-store';

export const REALTIME_COMPONENT = 'realtime';

/** realtime's tables in the embedded store: one status row per user (the StoredStatus as JSON). */
export const REALTIME_MIGRATIONS: readonly Migration[] = [
  `CREATE TABLE rt_statuses (
    user_id TEXT PRIMARY KEY,
    doc TEXT NOT NULL
  ) STRICT`,
];

/** Statuses of the embedded runtime in its store: a manual choice (away, dnd, offline) survives a restart. */
export class SqliteStatusStore implements StatusStore {
  private readonly select: SqliteStatement<[string], { doc: string }>;
  private readonly upsert: SqliteStatement<[string, string]>;

  public constructor(private readonly store: SqliteStore) {
    store.migrate(REALTIME_COMPONENT, REALTIME_MIGRATIONS);
    this.select = store.db.prepare<[string], { doc: string }>('SELECT doc FROM rt_statuses WHERE user_id IN (SELECT value FROM json_each(?))');
    this.upsert = store.db.prepare<[string, string]>('INSERT INTO rt_statuses (user_id, doc) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET doc = excluded.doc');
  }

  public async get(userIds: readonly string[]): Promise<ReadonlyMap<string, StoredStatus>> {
    const out = new Map<string, StoredStatus>();
    if (userIds.length === 0) return out;
    for (const row of this.select.all(JSON.stringify(userIds))) {
      const status = JSON.parse(row.doc) as StoredStatus;
      out.set(status.userId, status);
    }
    return out;
  }

  public async put(status: StoredStatus): Promise<void> {
    const doc: StoredStatus = { userId: status.userId, status: status.status, manual: status.manual, lastActivityAt: status.lastActivityAt, dndEndTime: status.dndEndTime, prevStatus: status.prevStatus, socket: status.socket };
    await this.store.writeOne(() => this.upsert.run(status.userId, JSON.stringify(doc)));
  }
}

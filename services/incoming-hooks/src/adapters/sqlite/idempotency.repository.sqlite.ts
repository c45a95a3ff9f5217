import { fromDoc, type DocRow, type SqliteStore } from '@switchyard/sqlite-kit';
import type { IdempotencyRecord, StoredResponse } from '../../domain/entities';
import { RELEASED_OWNER, type IdempotencyRepository, type ReserveResult } from '../../domain/ports';

/**
 * Idempotency records in the embedded store: `reserve` reads and claims in one synchronous write, so
 * it is atomic; every write resolves only once durable, so a replayed answer survives a crash.
 */
export class SqliteIdempotencyRepository implements IdempotencyRepository {
  private readonly one;
  private readonly upsert;
  private readonly setDoc;
  private readonly release_;
  private readonly purgeRows;

  public constructor(private readonly store: SqliteStore) {
    const db = store.db;
    this.one = db.prepare<[string, string], DocRow>('SELECT doc FROM ih_idempotency WHERE hook_id = ? AND key = ?');
    this.upsert = db.prepare(
      'INSERT INTO ih_idempotency (hook_id, key, owner, create_at, doc) VALUES (?, ?, ?, ?, ?) ON CONFLICT (hook_id, key) DO UPDATE SET owner = excluded.owner, create_at = excluded.create_at, doc = excluded.doc',
    );
    this.setDoc = db.prepare('UPDATE ih_idempotency SET doc = ? WHERE hook_id = ? AND key = ? AND owner = ?');
    this.release_ = db.prepare(`UPDATE ih_idempotency SET owner = '', doc = ? WHERE hook_id = ? AND key = ? AND owner = ?`);
    this.purgeRows = db.prepare('DELETE FROM ih_idempotency WHERE create_at < ?');
  }

  public async reserve(record: IdempotencyRecord, expiredBefore: number): Promise<ReserveResult> {
    return this.store.write((): ReserveResult => {
      const existing = fromDoc<IdempotencyRecord>(this.one.get(record.hookId, record.key));
      if (existing && existing.createAt >= expiredBefore) {
        if (existing.owner !== RELEASED_OWNER || existing.response) return { kind: 'existing', record: existing };
        this.upsert.run(record.hookId, record.key, record.owner, existing.createAt, JSON.stringify({ ...existing, owner: record.owner }));
        return { kind: 'reserved', since: existing.createAt };
      }
      this.upsert.run(record.hookId, record.key, record.owner, record.createAt, JSON.stringify(record));
      return { kind: 'reserved', since: record.createAt };
    });
  }

  public async complete(hookId: string, key: string, owner: string, response: StoredResponse): Promise<void> {
    await this.store.write(() => {
      const existing = fromDoc<IdempotencyRecord>(this.one.get(hookId, key));
      if (existing?.owner === owner) this.setDoc.run(JSON.stringify({ ...existing, response }), hookId, key, owner);
    });
  }

  public async release(hookId: string, key: string, owner: string): Promise<void> {
    await this.store.write(() => {
      const existing = fromDoc<IdempotencyRecord>(this.one.get(hookId, key));
      if (existing?.owner === owner && !existing.response) this.release_.run(JSON.stringify({ ...existing, owner: RELEASED_OWNER }), hookId, key, owner);
    });
  }

  public async find(hookId: string, key: string): Promise<IdempotencyRecord | undefined> {
    return fromDoc<IdempotencyRecord>(this.one.get(hookId, key));
  }

  public async purge(createdBefore: number): Promise<number> {
    return this.store.write(() => this.purgeRows.run(createdBefore).changes);
  }
}

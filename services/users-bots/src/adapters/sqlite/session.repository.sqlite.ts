import { fromDoc, fromDocs, type DocRow, type SqliteStore } from '@switchyard/sqlite-kit';
import type { Session } from '../../domain/entities';
import type { SessionRepository } from '../../domain/ports';
import { mapDuplicates } from './sqlite-support';

const UNIQUE_KEYS = { id: 'id', token_hash: 'tokenHash' };

export class SqliteSessionRepository implements SessionRepository {
  private readonly insertRow;
  private readonly byId;
  private readonly byTokenHash;
  private readonly byUser;
  private readonly deleteRow;
  private readonly deleteUser;
  private readonly deleteToken;

  public constructor(private readonly store: SqliteStore) {
    const db = store.db;
    this.insertRow = db.prepare('INSERT INTO ub_sessions (id, token_hash, user_id, token_id, create_at, doc) VALUES (?, ?, ?, ?, ?, ?)');
    this.byId = db.prepare<[string], DocRow>('SELECT doc FROM ub_sessions WHERE id = ?');
    this.byTokenHash = db.prepare<[string], DocRow>('SELECT doc FROM ub_sessions WHERE token_hash = ?');
    this.byUser = db.prepare<[string], DocRow>('SELECT doc FROM ub_sessions WHERE user_id = ? ORDER BY create_at, id');
    this.deleteRow = db.prepare('DELETE FROM ub_sessions WHERE id = ?');
    this.deleteUser = db.prepare<[string], { id: string }>('DELETE FROM ub_sessions WHERE user_id = ? RETURNING id');
    this.deleteToken = db.prepare<[string], { id: string }>('DELETE FROM ub_sessions WHERE token_id = ? RETURNING id');
  }

  public async insert(session: Session): Promise<void> {
    await this.store.write(() =>
      mapDuplicates(UNIQUE_KEYS, () => this.insertRow.run(session.id, session.tokenHash, session.userId, session.tokenId, session.createAt, JSON.stringify(session))),
    );
  }

  public async findById(id: string): Promise<Session | undefined> {
    return fromDoc<Session>(this.byId.get(id));
  }

  public async findByTokenHash(tokenHash: string): Promise<Session | undefined> {
    return fromDoc<Session>(this.byTokenHash.get(tokenHash));
  }

  public async listByUser(userId: string): Promise<Session[]> {
    return fromDocs<Session>(this.byUser.all(userId));
  }

  public async deleteById(id: string): Promise<boolean> {
    return this.store.write(() => this.deleteRow.run(id).changes === 1);
  }

  public async deleteByUser(userId: string): Promise<string[]> {
    return this.store.write(() => this.deleteUser.all(userId).map((r) => r.id));
  }

  public async deleteByTokenId(tokenId: string): Promise<string[]> {
    if (tokenId === '') return [];
    return this.store.write(() => this.deleteToken.all(tokenId).map((r) => r.id));
  }
}

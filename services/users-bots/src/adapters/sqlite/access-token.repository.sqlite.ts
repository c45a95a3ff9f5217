import { fromDoc, fromDocs, pageWindow, type DocRow, type SqliteStore } from '@switchyard/sqlite-kit';
import type { AccessToken } from '../../domain/entities';
import type { AccessTokenRepository, Page } from '../../domain/ports';
import { mapDuplicates } from './sqlite-support';

const UNIQUE_KEYS = { id: 'id', token_hash: 'tokenHash' };

export class SqliteAccessTokenRepository implements AccessTokenRepository {
  private readonly insertRow;
  private readonly byId;
  private readonly byTokenHash;
  private readonly byUser;
  private readonly all;
  private readonly setDoc;
  private readonly deleteRow;
  private readonly deleteUser;

  public constructor(private readonly store: SqliteStore) {
    const db = store.db;
    this.insertRow = db.prepare('INSERT INTO ub_tokens (id, token_hash, user_id, create_at, doc) VALUES (?, ?, ?, ?, ?)');
    this.byId = db.prepare<[string], DocRow>('SELECT doc FROM ub_tokens WHERE id = ?');
    this.byTokenHash = db.prepare<[string], DocRow>('SELECT doc FROM ub_tokens WHERE token_hash = ?');
    this.byUser = db.prepare<[string, number, number], DocRow>('SELECT doc FROM ub_tokens WHERE user_id = ? ORDER BY create_at, id LIMIT ? OFFSET ?');
    this.all = db.prepare<[number, number], DocRow>('SELECT doc FROM ub_tokens ORDER BY create_at, id LIMIT ? OFFSET ?');
    this.setDoc = db.prepare('UPDATE ub_tokens SET doc = ? WHERE id = ?');
    this.deleteRow = db.prepare('DELETE FROM ub_tokens WHERE id = ?');
    this.deleteUser = db.prepare<[string], { id: string }>('DELETE FROM ub_tokens WHERE user_id = ? RETURNING id');
  }

  public async insert(token: AccessToken): Promise<void> {
    await this.store.write(() => mapDuplicates(UNIQUE_KEYS, () => this.insertRow.run(token.id, token.tokenHash, token.userId, token.createAt, JSON.stringify(token))));
  }

  public async findById(id: string): Promise<AccessToken | undefined> {
    return fromDoc<AccessToken>(this.byId.get(id));
  }

  public async findByTokenHash(tokenHash: string): Promise<AccessToken | undefined> {
    return fromDoc<AccessToken>(this.byTokenHash.get(tokenHash));
  }

  public async listByUser(userId: string, page: Page): Promise<AccessToken[]> {
    const window = pageWindow(page);
    return window ? fromDocs<AccessToken>(this.byUser.all(userId, window.limit, window.offset)) : [];
  }

  public async listAll(page: Page): Promise<AccessToken[]> {
    const window = pageWindow(page);
    return window ? fromDocs<AccessToken>(this.all.all(window.limit, window.offset)) : [];
  }

  public async setActive(id: string, isActive: boolean): Promise<AccessToken | undefined> {
    return this.store.write(() => {
      const current = fromDoc<AccessToken>(this.byId.get(id));
      if (!current) return undefined;
      const next = { ...current, isActive };
      this.setDoc.run(JSON.stringify(next), id);
      return next;
    });
  }

  public async deleteById(id: string): Promise<boolean> {
    return this.store.write(() => this.deleteRow.run(id).changes === 1);
  }

  public async deleteByUser(userId: string): Promise<string[]> {
    return this.store.write(() => this.deleteUser.all(userId).map((r) => r.id));
  }
}

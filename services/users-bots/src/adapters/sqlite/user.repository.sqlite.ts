import { splitRoles } from '@switchyard/permissions';
import { definedChanges, fromDoc, fromDocs, inKeyOrder, jsonList, pageWindow, type DocRow, type SqliteStore } from '@switchyard/sqlite-kit';
import type { User, UserChanges } from '../../domain/entities';
import type { UserQuery, UserRepository } from '../../domain/ports';
import { asDuplicate } from './sqlite-support';

const UNIQUE_KEYS: Record<string, string> = { id: 'id', username: 'username', email: 'email' };

const SORTS = {
  username: 'username',
  create_at: 'create_at DESC, username',
  last_activity_at: 'last_activity_at DESC, username',
} as const;

function columns(user: User): unknown[] {
  return [user.id, user.username, user.email, user.isBot ? 1 : 0, JSON.stringify(splitRoles(user.roles)), user.createAt, user.updateAt, user.deleteAt, user.lastActivityAt, JSON.stringify(user)];
}

export class SqliteUserRepository implements UserRepository {
  private readonly insertRow;
  private readonly replaceRow;
  private readonly byId;
  private readonly byUsername;
  private readonly byEmail;
  private readonly byIds;
  private readonly byUsernames;
  private readonly deleteRow;
  private readonly humans;

  public constructor(private readonly store: SqliteStore) {
    const db = store.db;
    this.insertRow = db.prepare('INSERT INTO ub_users (id, username, email, is_bot, roles, create_at, update_at, delete_at, last_activity_at, doc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    this.replaceRow = db.prepare('UPDATE ub_users SET id = ?, username = ?, email = ?, is_bot = ?, roles = ?, create_at = ?, update_at = ?, delete_at = ?, last_activity_at = ?, doc = ? WHERE id = ?');
    this.byId = db.prepare<[string], DocRow>('SELECT doc FROM ub_users WHERE id = ?');
    this.byUsername = db.prepare<[string], DocRow>('SELECT doc FROM ub_users WHERE username = ?');
    this.byEmail = db.prepare<[string], DocRow>('SELECT doc FROM ub_users WHERE email = ?');
    this.byIds = db.prepare<[string], DocRow & { k: string }>('SELECT id AS k, doc FROM ub_users WHERE id IN (SELECT value FROM json_each(?))');
    this.byUsernames = db.prepare<[string], DocRow & { k: string }>('SELECT username AS k, doc FROM ub_users WHERE username IN (SELECT value FROM json_each(?))');
    this.deleteRow = db.prepare('DELETE FROM ub_users WHERE id = ?');
    this.humans = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM ub_users WHERE is_bot = 0');
  }

  public async insert(user: User): Promise<void> {
    await this.store.write(() => {
      try {
        this.insertRow.run(...columns(user));
      } catch (error) {
        throw asDuplicate(error, UNIQUE_KEYS);
      }
    });
  }

  public async update(id: string, changes: UserChanges): Promise<User | undefined> {
    return this.store.write(() => {
      const current = fromDoc<User>(this.byId.get(id));
      if (!current) return undefined;
      const next: User = { ...current, ...definedChanges(changes, ['id', 'createAt']), id };
      try {
        this.replaceRow.run(...columns(next), id);
      } catch (error) {
        throw asDuplicate(error, UNIQUE_KEYS);
      }
      return next;
    });
  }

  public async reserveLoginAttempt(id: string, limit: number): Promise<boolean> {
    // Read and write inside one synchronous write (a transaction on the single connection): atomic.
    return this.store.write(() => {
      const current = fromDoc<User>(this.byId.get(id));
      if (!current || current.failedAttempts >= limit) return false;
      this.replaceRow.run(...columns({ ...current, failedAttempts: current.failedAttempts + 1 }), id);
      return true;
    });
  }

  public async delete(id: string): Promise<boolean> {
    return this.store.write(() => this.deleteRow.run(id).changes === 1);
  }

  public async findById(id: string): Promise<User | undefined> {
    return fromDoc<User>(this.byId.get(id));
  }

  public async findByIds(ids: readonly string[]): Promise<User[]> {
    if (ids.length === 0) return [];
    return inKeyOrder<User>(ids, this.byIds.all(jsonList(ids)));
  }

  public async findByUsername(username: string): Promise<User | undefined> {
    return fromDoc<User>(this.byUsername.get(username));
  }

  public async findByUsernames(usernames: readonly string[]): Promise<User[]> {
    if (usernames.length === 0) return [];
    return inKeyOrder<User>(usernames, this.byUsernames.all(jsonList(usernames)));
  }

  public async findByEmail(email: string): Promise<User | undefined> {
    return fromDoc<User>(this.byEmail.get(email));
  }

  public async search(query: UserQuery): Promise<User[]> {
    const window = pageWindow(query);
    if (!window || query.ids?.length === 0 || query.anyRole?.length === 0) return [];
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.ids) {
      where.push('id IN (SELECT value FROM json_each(?))');
      params.push(jsonList(query.ids));
    }
    if (query.excludeIds && query.excludeIds.length > 0) {
      where.push('id NOT IN (SELECT value FROM json_each(?))');
      params.push(jsonList(query.excludeIds));
    }
    if (query.active === true) where.push('delete_at = 0');
    if (query.active === false) where.push('delete_at > 0');
    if (query.updatedSince !== undefined) {
      where.push('update_at > ?');
      params.push(query.updatedSince);
    }
    if (query.role !== undefined) {
      where.push('EXISTS (SELECT 1 FROM json_each(roles) WHERE value = ?)');
      params.push(query.role);
    }
    if (query.anyRole) {
      where.push('EXISTS (SELECT 1 FROM json_each(roles) WHERE value IN (SELECT value FROM json_each(?)))');
      params.push(jsonList(query.anyRole));
    }
    const sql = `SELECT doc FROM ub_users ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${SORTS[query.sort ?? 'username']} LIMIT ? OFFSET ?`;
    return fromDocs<User>(this.store.db.prepare<unknown[], DocRow>(sql).all(...params, window.limit, window.offset));
  }

  public async countHumans(): Promise<number> {
    return this.humans.get()?.n ?? 0;
  }
}

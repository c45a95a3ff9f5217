import type { User, UserChanges } from '../../domain/entities';
import { DuplicateKeyError } from '../../domain/errors';
import type { UserQuery, UserRepository } from '../../domain/ports';
import { splitRoles } from '@switchyard/permissions';
import { copy, paginate } from './memory-utils';

export class MemoryUserRepository implements UserRepository {
  private readonly byId = new Map<string, User>();
  private readonly idByUsername = new Map<string, string>();
  private readonly idByEmail = new Map<string, string>();

  public async insert(user: User): Promise<void> {
    if (this.byId.has(user.id)) throw new DuplicateKeyError('id');
    this.checkUnique(user.id, user.username, user.email);
    this.store(copy(user));
  }

  public async update(id: string, changes: UserChanges): Promise<User | undefined> {
    const current = this.byId.get(id);
    if (!current) return undefined;
    const next: User = { ...current, ...copy(changes), id };
    this.checkUnique(id, next.username, next.email);
    this.idByUsername.delete(current.username);
    this.idByEmail.delete(current.email);
    this.store(next);
    return copy(next);
  }

  public async reserveLoginAttempt(id: string, limit: number): Promise<boolean> {
    // No await between the read and the write: atomic on the event loop.
    const current = this.byId.get(id);
    if (!current || current.failedAttempts >= limit) return false;
    this.byId.set(id, { ...current, failedAttempts: current.failedAttempts + 1 });
    return true;
  }

  public async delete(id: string): Promise<boolean> {
    const current = this.byId.get(id);
    if (!current) return false;
    this.byId.delete(id);
    this.idByUsername.delete(current.username);
    this.idByEmail.delete(current.email);
    return true;
  }

  public async findById(id: string): Promise<User | undefined> {
    const user = this.byId.get(id);
    return user ? copy(user) : undefined;
  }

  public async findByIds(ids: readonly string[]): Promise<User[]> {
    return ids.flatMap((id) => {
      const user = this.byId.get(id);
      return user ? [copy(user)] : [];
    });
  }

  public async findByUsername(username: string): Promise<User | undefined> {
    const id = this.idByUsername.get(username);
    return id === undefined ? undefined : this.findById(id);
  }

  public async findByUsernames(usernames: readonly string[]): Promise<User[]> {
    return this.findByIds(usernames.flatMap((u) => this.idByUsername.get(u) ?? []));
  }

  public async findByEmail(email: string): Promise<User | undefined> {
    const id = this.idByEmail.get(email);
    return id === undefined ? undefined : this.findById(id);
  }

  public async search(query: UserQuery): Promise<User[]> {
    const only = query.ids ? new Set(query.ids) : undefined;
    const never = new Set(query.excludeIds ?? []);
    const matches = [...this.byId.values()].filter((u) => {
      if (only && !only.has(u.id)) return false;
      if (never.has(u.id)) return false;
      if (query.active === true && u.deleteAt !== 0) return false;
      if (query.active === false && u.deleteAt === 0) return false;
      if (query.updatedSince !== undefined && u.updateAt <= query.updatedSince) return false;
      const roles = splitRoles(u.roles);
      if (query.role !== undefined && !roles.includes(query.role)) return false;
      if (query.anyRole && !query.anyRole.some((r) => roles.includes(r))) return false;
      return true;
    });
    const sort = query.sort ?? 'username';
    matches.sort((a, b) => {
      if (sort === 'create_at') return b.createAt - a.createAt || compare(a.username, b.username);
      if (sort === 'last_activity_at') return b.lastActivityAt - a.lastActivityAt || compare(a.username, b.username);
      return compare(a.username, b.username);
    });
    return paginate(matches, query).map(copy);
  }

  public async countHumans(): Promise<number> {
    let count = 0;
    for (const user of this.byId.values()) if (!user.isBot) count += 1;
    return count;
  }

  private checkUnique(id: string, username: string, email: string): void {
    const nameOwner = this.idByUsername.get(username);
    if (nameOwner !== undefined && nameOwner !== id) throw new DuplicateKeyError('username');
    const emailOwner = this.idByEmail.get(email);
    if (emailOwner !== undefined && emailOwner !== id) throw new DuplicateKeyError('email');
  }

  private store(user: User): void {
    this.byId.set(user.id, user);
    this.idByUsername.set(user.username, user.id);
    this.idByEmail.set(user.email, user.id);
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

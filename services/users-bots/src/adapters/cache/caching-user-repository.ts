import { ReadThroughCache } from '@switchyard/read-cache';
import type { User, UserChanges } from '../../domain/entities';
import type { CachedUsers, UserQuery, UserRepository } from '../../domain/ports';

/** How long a user read through `cached` is reused when no change was seen (changes evict sooner). */
const DEFAULT_TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

/**
 * The user repository with a read cache for the hot reads (`GET /users/me`): `cached(id)` reuses a user
 * read within the TTL; every write through this repository evicts it at once, and `evict` (fed by this
 * instance's users.events consumer) drops what another replica changed. Every other read goes to the
 * store, so logins, permission checks and lockouts always see the stored user.
 */
export class CachingUserRepository implements UserRepository, CachedUsers {
  /** Reads through `cached`; an eviction that overlaps a read keeps that read out of the cache. */
  private readonly entries: ReadThroughCache<User>;

  public constructor(
    private readonly store: UserRepository,
    ttlMs = DEFAULT_TTL_MS,
    now: () => number = Date.now,
  ) {
    this.entries = new ReadThroughCache({ ttlMs, maxEntries: MAX_ENTRIES, now });}

  public cached(id: string): Promise<User | undefined> {
    return this.entries.get(id, () => this.store.findById(id));
  }


  public evict(id: string): void {
    this.entries.evict(id);
  }

  public async insert(user: User): Promise<void> {
    this.evict(user.id);
    await this.store.insert(user);
  }

  public async update(id: string, changes: UserChanges): Promise<User | undefined> {
    this.evict(id);
    try {
      return await this.store.update(id, changes);
    } finally {
      this.evict(id);
    }
  }

  public async reserveLoginAttempt(id: string, limit: number): Promise<boolean> {
    this.evict(id);
    return this.store.reserveLoginAttempt(id, limit);
  }

  public async delete(id: string): Promise<boolean> {
    try {
      return await this.store.delete(id);
    } finally {
      this.evict(id);
    }
  }

  public findById(id: string): Promise<User | undefined> {
    return this.store.findById(id);
  }

  public findByIds(ids: readonly string[]): Promise<User[]> {
    return this.store.findByIds(ids);
  }

  public findByUsername(username: string): Promise<User | undefined> {
    return this.store.findByUsername(username);
  }

  public findByUsernames(usernames: readonly string[]): Promise<User[]> {
    return this.store.findByUsernames(usernames);
  }

  public findByEmail(email: string): Promise<User | undefined> {
    return this.store.findByEmail(email);
  }

  public search(query: UserQuery): Promise<User[]> {
    return this.store.search(query);
  }

  public countHumans(): Promise<number> {
    return this.store.countHumans();
  }
}

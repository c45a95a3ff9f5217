import type { IncomingHook, IncomingHookChanges } from '../../domain/entities';
import type { HookQuery, IncomingHookRepository } from '../../domain/ports';
import { ReadThroughCache } from '@switchyard/read-cache';

/**
 * The hook repository with a short read cache for `findById` (every `POST /hooks/{key}` looks its hook
 * up): a live hook read is reused for `ttlMs` (default 1 s). A write through this repository (create,
 * update, delete) evicts it at once, so this instance never serves a hook older than its own last change;
 * a change made through another replica is seen within `ttlMs`. Deleted and unknown hooks are not cached,
 * so keys that do not exist (a guessing sender) cannot fill the cache and a new hook works at once.
 */
export class CachingHookRepository implements IncomingHookRepository {
  /** Evicted by every write: a read that overlapped one is not cached. */
  private readonly cache: ReadThroughCache<IncomingHook>;

  public constructor(private readonly store: IncomingHookRepository, ttlMs = 1_000, now: () => number = Date.now) {
    this.cache = new ReadThroughCache<IncomingHook>({ ttlMs, now });
  }

  public findById(id: string): Promise<IncomingHook | undefined> {
    return this.cache.get(id, () => this.store.findById(id), (hook) => hook.deleteAt === 0);
  }

  public async insert(hook: IncomingHook): Promise<void> {
    this.forget(hook.id);
    await this.store.insert(hook);
  }

  public async update(id: string, changes: IncomingHookChanges): Promise<IncomingHook | undefined> {
    this.forget(id);
    try {
      return await this.store.update(id, changes);
    } finally {
      this.forget(id);
    }
  }

  public list(query: HookQuery): Promise<IncomingHook[]> {
    return this.store.list(query);
  }

  public count(query: Omit<HookQuery, 'page' | 'perPage'>): Promise<number> {
    return this.store.count(query);
  }

  private forget(id: string): void {
    this.cache.evict(id);
  }
}

import type { IncomingHook, IncomingHookChanges } from '../../domain/entities';
import type { HookQuery, IncomingHookRepository } from '../../domain/ports';
import { TtlCache } from './ttl-cache';

/**
 * The hook repository with a short read cache for `findById` (every `POST /hooks/{key}` looks its hook
 * up): a live hook read is reused for `ttlMs` (default 1 s). A write through this repository (create,
 * update, delete) evicts it at once, so this instance never serves a hook older than its own last change;
 * a change made through another replica is seen within `ttlMs`. Deleted and unknown hooks are not cached,
 * so keys that do not exist (a guessing sender) cannot fill the cache and a new hook works at once.
 */
export class CachingHookRepository implements IncomingHookRepository {
  private readonly cache: TtlCache<IncomingHook>;
  /** Bumped by every write: a read that overlapped one is not cached. */
  private generation = 0;

  public constructor(private readonly store: IncomingHookRepository, ttlMs = 1_000, now: () => number = Date.now) {
    this.cache = new TtlCache<IncomingHook>(ttlMs, 10_000, now);
  }

  public async findById(id: string): Promise<IncomingHook | undefined> {
    const hit = this.cache.get(id);
    if (hit) return hit;
    const generation = this.generation;
    const hook = await this.store.findById(id);
    if (hook && hook.deleteAt === 0 && generation === this.generation) this.cache.set(id, hook);
    return hook;
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
    this.generation += 1;
    this.cache.delete(id);
  }
}

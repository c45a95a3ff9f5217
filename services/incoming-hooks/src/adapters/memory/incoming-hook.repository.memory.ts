import type { IncomingHook, IncomingHookChanges } from '../../domain/entities';
import { DuplicateKeyError } from '../../domain/errors';
import type { HookQuery, IncomingHookRepository } from '../../domain/ports';

const matches = (hook: IncomingHook, query: Omit<HookQuery, 'page' | 'perPage'>): boolean =>
  hook.deleteAt === 0 && (query.teamId === undefined || hook.teamId === query.teamId) && (query.userId === undefined || hook.userId === query.userId);

const oldestFirst = (a: IncomingHook, b: IncomingHook): number => a.createAt - b.createAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** In-process hooks (embedded runtime, tests). Returns copies. */
export class MemoryIncomingHookRepository implements IncomingHookRepository {
  private readonly hooks = new Map<string, IncomingHook>();

  public async insert(hook: IncomingHook): Promise<void> {
    if (this.hooks.has(hook.id)) throw new DuplicateKeyError('id');
    this.hooks.set(hook.id, { ...hook });
  }

  public async update(id: string, changes: IncomingHookChanges): Promise<IncomingHook | undefined> {
    const current = this.hooks.get(id);
    if (!current) return undefined;
    const next: IncomingHook = { ...current };
    for (const [key, value] of Object.entries(changes)) if (value !== undefined) (next as unknown as Record<string, unknown>)[key] = value;
    this.hooks.set(id, next);
    return { ...next };
  }

  public async findById(id: string): Promise<IncomingHook | undefined> {
    const hook = this.hooks.get(id);
    return hook ? { ...hook } : undefined;
  }

  public async list(query: HookQuery): Promise<IncomingHook[]> {
    if (!(query.perPage > 0) || !(query.page >= 0)) return [];
    const all = [...this.hooks.values()].filter((h) => matches(h, query)).sort(oldestFirst);
    return all.slice(query.page * query.perPage, (query.page + 1) * query.perPage).map((h) => ({ ...h }));
  }

  public async count(query: Omit<HookQuery, 'page' | 'perPage'>): Promise<number> {
    let n = 0;
    for (const hook of this.hooks.values()) if (matches(hook, query)) n += 1;
    return n;
  }
}

import type { OutgoingHook } from '../../domain/entities';
import type { HookQuery, OutgoingHookRepository } from '../../domain/ports';

const copy = (hook: OutgoingHook): OutgoingHook => structuredClone(hook);

export class MemoryOutgoingHookRepository implements OutgoingHookRepository {
  private readonly hooks = new Map<string, OutgoingHook>();

  public async insert(hook: OutgoingHook): Promise<void> {
    if (this.hooks.has(hook.id)) throw new Error(`duplicate outgoing hook ${hook.id}`);
    this.hooks.set(hook.id, copy(hook));
  }

  public async replace(hook: OutgoingHook): Promise<boolean> {
    if (!this.hooks.has(hook.id)) return false;
    this.hooks.set(hook.id, copy(hook));
    return true;
  }

  public async findById(id: string): Promise<OutgoingHook | undefined> {
    const hook = this.hooks.get(id);
    return hook ? copy(hook) : undefined;
  }

  public async list(query: HookQuery): Promise<OutgoingHook[]> {
    if (!(query.perPage > 0) || query.page < 0) return [];
    return [...this.hooks.values()]
      .filter((h) => h.deleteAt === 0)
      .filter((h) => query.teamId === undefined || h.teamId === query.teamId)
      .filter((h) => query.channelId === undefined || h.channelId === query.channelId)
      .filter((h) => query.creatorId === undefined || h.creatorId === query.creatorId)
      .sort((a, b) => a.createAt - b.createAt || (a.id < b.id ? -1 : 1))
      .slice(query.page * query.perPage, (query.page + 1) * query.perPage)
      .map(copy);
  }

  public async findBotHooks(): Promise<OutgoingHook[]> {
    return [...this.hooks.values()].filter((h) => h.botUserId !== '' && h.deleteAt === 0).map(copy);
  }

  public async findByTeam(teamId: string): Promise<OutgoingHook[]> {
    return [...this.hooks.values()].filter((h) => h.teamId === teamId && h.deleteAt === 0).map(copy);
  }
}

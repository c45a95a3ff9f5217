import type { Bot, BotChanges } from '../../domain/entities';
import { DuplicateKeyError } from '../../domain/errors';
import type { BotQuery, BotRepository } from '../../domain/ports';
import { byCreateThenId, copy, paginate } from './memory-utils';

export class MemoryBotRepository implements BotRepository {
  private readonly byId = new Map<string, Bot>();

  public async insert(bot: Bot): Promise<void> {
    if (this.byId.has(bot.id)) throw new DuplicateKeyError('id');
    this.byId.set(bot.id, copy(bot));
  }

  public async update(id: string, changes: BotChanges): Promise<Bot | undefined> {
    const bot = this.byId.get(id);
    if (!bot) return undefined;
    const next: Bot = { ...bot, ...copy(changes), id };
    this.byId.set(id, next);
    return copy(next);
  }

  public async delete(id: string): Promise<boolean> {
    return this.byId.delete(id);
  }

  public async findById(id: string): Promise<Bot | undefined> {
    const bot = this.byId.get(id);
    return bot ? copy(bot) : undefined;
  }

  public async findByIds(ids: readonly string[]): Promise<Bot[]> {
    return ids.flatMap((id) => {
      const bot = this.byId.get(id);
      return bot ? [copy(bot)] : [];
    });
  }

  public async list(query: BotQuery): Promise<Bot[]> {
    const owners = query.ownerIds ? new Set(query.ownerIds) : undefined;
    const matches = [...this.byId.values()].filter(
      (b) =>
        (query.includeDeleted || b.deleteAt === 0) &&
        (query.ownerId === undefined || b.ownerId === query.ownerId) &&
        (owners === undefined || owners.has(b.ownerId)),
    );
    return paginate(matches.sort(byCreateThenId), query).map(copy);
  }

  public async findByOwner(ownerId: string): Promise<Bot[]> {
    return [...this.byId.values()].filter((b) => b.ownerId === ownerId).sort(byCreateThenId).map(copy);
  }
}

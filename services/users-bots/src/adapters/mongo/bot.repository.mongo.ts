import type { Model } from '@switchyard/mongo-kit';
import type { Bot, BotChanges } from '../../domain/entities';
import type { BotQuery, BotRepository } from '../../domain/ports';
import { fromBotDocument, toBotDocument, type BotDocument } from './bot.schema.mongo';
import { asDomainError, inRequestedOrder, pageWindow, setOf, type Filter } from './mongo-support';

/** The only unique index of the bots collection → DuplicateKeyError('id'). */
const UNIQUE_KEYS = { _id: 'id' } as const;
const OLDEST_FIRST = { createAt: 1, _id: 1 } as const;

export class MongoBotRepository implements BotRepository {
  public constructor(private readonly model: Model<BotDocument>) {}

  public async insert(bot: Bot): Promise<void> {
    try {
      await this.model.create(toBotDocument(bot));
    } catch (error) {
      throw await asDomainError(error, UNIQUE_KEYS);
    }
  }

  public async update(id: string, changes: BotChanges): Promise<Bot | undefined> {
    const set = setOf(changes, ['id', 'createAt']);
    if (Object.keys(set).length === 0) return this.findById(id);
    const doc = await this.model.findOneAndUpdate({ _id: id }, { $set: set }, { new: true }).lean<BotDocument>();
    return doc ? fromBotDocument(doc) : undefined;
  }

  public async delete(id: string): Promise<boolean> {
    const result = await this.model.deleteOne({ _id: id });
    return result.deletedCount === 1;
  }

  public async findById(id: string): Promise<Bot | undefined> {
    const doc = await this.model.findById(id).lean<BotDocument>();
    return doc ? fromBotDocument(doc) : undefined;
  }

  public async findByIds(ids: readonly string[]): Promise<Bot[]> {
    if (ids.length === 0) return [];
    const docs = await this.model.find({ _id: { $in: [...new Set(ids)] } }).lean<BotDocument[]>();
    return inRequestedOrder(ids, docs.map(fromBotDocument), (b) => b.id);
  }

  public async list(query: BotQuery): Promise<Bot[]> {
    const window = pageWindow(query);
    if (!window || query.ownerIds?.length === 0) return [];
    const filter: Filter = {};
    if (!query.includeDeleted) filter.deleteAt = 0;
    if (query.ownerId !== undefined && query.ownerIds) filter.$and = [{ ownerId: query.ownerId }, { ownerId: { $in: [...query.ownerIds] } }];
    else if (query.ownerId !== undefined) filter.ownerId = query.ownerId;
    else if (query.ownerIds) filter.ownerId = { $in: [...query.ownerIds] };
    const docs = await this.model.find(filter).sort(OLDEST_FIRST).skip(window.skip).limit(window.limit).lean<BotDocument[]>();
    return docs.map(fromBotDocument);
  }

  public async findByOwner(ownerId: string): Promise<Bot[]> {
    const docs = await this.model.find({ ownerId }).sort(OLDEST_FIRST).lean<BotDocument[]>();
    return docs.map(fromBotDocument);
  }
}

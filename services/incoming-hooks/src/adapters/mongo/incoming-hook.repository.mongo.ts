import type { Model } from '@switchyard/mongo-kit';
import type { IncomingHook, IncomingHookChanges } from '../../domain/entities';
import { DuplicateKeyError } from '../../domain/errors';
import type { HookQuery, IncomingHookRepository } from '../../domain/ports';
import { fromHookDocument, toHookDocument, type IncomingHookDocument } from './incoming-hook.schema.mongo';
import { isUniqueViolation } from '@switchyard/mongo-kit';

const OLDEST_FIRST = { createAt: 1, _id: 1 } as const;

function filterOf(query: Omit<HookQuery, 'page' | 'perPage'>): Record<string, unknown> {
  const filter: Record<string, unknown> = { deleteAt: 0 };
  if (query.teamId !== undefined) filter.teamId = query.teamId;
  if (query.userId !== undefined) filter.userId = query.userId;
  return filter;
}

export class MongoIncomingHookRepository implements IncomingHookRepository {
  public constructor(private readonly model: Model<IncomingHookDocument>) {}

  public async insert(hook: IncomingHook): Promise<void> {
    try {
      await this.model.create(toHookDocument(hook));
    } catch (error) {
      throw isUniqueViolation(error) ? new DuplicateKeyError('id') : error;
    }
  }

  public async update(id: string, changes: IncomingHookChanges): Promise<IncomingHook | undefined> {
    const set: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(changes)) if (value !== undefined && key !== 'id' && key !== '_id') set[key] = value;
    if (Object.keys(set).length === 0) return this.findById(id);
    const doc = await this.model.findOneAndUpdate({ _id: id }, { $set: set }, { new: true }).lean<IncomingHookDocument>();
    return doc ? fromHookDocument(doc) : undefined;
  }

  /**
   * The driver's collection directly: every `POST /hooks/{key}` looks its hook up, and mongoose's query
   * building and casting cost more CPU than the lookup itself (the key is a string `_id`; nothing to cast).
   */
  public async findById(id: string): Promise<IncomingHook | undefined> {
    const doc = (await this.model.collection.findOne({ _id: id } as never)) as IncomingHookDocument | null;
    return doc ? fromHookDocument(doc) : undefined;
  }

  public async list(query: HookQuery): Promise<IncomingHook[]> {
    if (!(query.perPage > 0) || !(query.page >= 0)) return [];
    const docs = await this.model.find(filterOf(query)).sort(OLDEST_FIRST).skip(query.page * query.perPage).limit(query.perPage).lean<IncomingHookDocument[]>();
    return docs.map(fromHookDocument);
  }

  public async count(query: Omit<HookQuery, 'page' | 'perPage'>): Promise<number> {
    return this.model.countDocuments(filterOf(query));
  }
}

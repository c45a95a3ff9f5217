import type { Model } from '@switchyard/mongo-kit';
import type { OutgoingHook } from '../../domain/entities';
import type { HookQuery, OutgoingHookRepository } from '../../domain/ports';
import { fromHookDocument, toHookDocument, type OutgoingHookDocument } from './outgoing-hook.schema.mongo';

const OLDEST_FIRST = { createAt: 1, _id: 1 } as const;

export class MongoOutgoingHookRepository implements OutgoingHookRepository {
  public constructor(private readonly model: Model<OutgoingHookDocument>) {}

  public async insert(hook: OutgoingHook): Promise<void> {
    await this.model.create(toHookDocument(hook));
  }

  public async replace(hook: OutgoingHook): Promise<boolean> {
    const { _id, ...rest } = toHookDocument(hook);
    const result = await this.model.updateOne({ _id }, { $set: rest });
    return result.matchedCount === 1;
  }

  public async findById(id: string): Promise<OutgoingHook | undefined> {
    const doc = await this.model.findById(id).lean<OutgoingHookDocument>();
    return doc ? fromHookDocument(doc) : undefined;
  }

  public async list(query: HookQuery): Promise<OutgoingHook[]> {
    if (!(query.perPage > 0) || query.page < 0) return [];
    const filter: Record<string, unknown> = { deleteAt: 0 };
    if (query.teamId !== undefined) filter.teamId = query.teamId;
    if (query.channelId !== undefined) filter.channelId = query.channelId;
    if (query.creatorId !== undefined) filter.creatorId = query.creatorId;
    const docs = await this.model.find(filter).sort(OLDEST_FIRST).skip(query.page * query.perPage).limit(query.perPage).lean<OutgoingHookDocument[]>();
    return docs.map(fromHookDocument);
  }

  public async findBotHooks(): Promise<OutgoingHook[]> {
    const docs = await this.model.find({ deleteAt: 0, botUserId: { $gt: '' } }).sort(OLDEST_FIRST).lean<OutgoingHookDocument[]>();
    return docs.map(fromHookDocument);
  }

  public async findByTeam(teamId: string): Promise<OutgoingHook[]> {
    const docs = await this.model.find({ teamId, deleteAt: 0 }).sort(OLDEST_FIRST).lean<OutgoingHookDocument[]>();
    return docs.map(fromHookDocument);
  }
}

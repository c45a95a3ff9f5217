import type { Model } from '@switchyard/mongo-kit';
import type { Command, CommandWebhook } from '../../domain/commands/command';
import type { CommandRepository, CommandWebhookRepository } from '../../domain/ports';
import {
  fromCommandDocument,
  fromCommandWebhookDocument,
  toCommandDocument,
  toCommandWebhookDocument,
  type CommandDocument,
  type CommandWebhookDocument,
} from './command.schema.mongo';

export class MongoCommandRepository implements CommandRepository {
  public constructor(private readonly model: Model<CommandDocument>) {}

  public async insert(command: Command): Promise<void> {
    await this.model.create(toCommandDocument(command));
  }

  public async replace(command: Command): Promise<boolean> {
    const { _id, ...rest } = toCommandDocument(command);
    return (await this.model.updateOne({ _id }, { $set: rest })).matchedCount === 1;
  }

  public async findById(id: string): Promise<Command | undefined> {
    const doc = await this.model.findById(id).lean<CommandDocument>();
    return doc ? fromCommandDocument(doc) : undefined;
  }

  public async listByTeam(teamId: string, creatorId?: string): Promise<Command[]> {
    const filter: Record<string, unknown> = { teamId, deleteAt: 0, ...(creatorId === undefined ? {} : { creatorId }) };
    const docs = await this.model.find(filter).sort({ createAt: 1, _id: 1 }).lean<CommandDocument[]>();
    return docs.map(fromCommandDocument);
  }
}

/** A use is one findOneAndUpdate guarded by the count and the age, so concurrent uses never exceed the limit. */
export class MongoCommandWebhookRepository implements CommandWebhookRepository {
  public constructor(private readonly model: Model<CommandWebhookDocument>) {}

  public async insert(hook: CommandWebhook): Promise<void> {
    await this.model.create(toCommandWebhookDocument(hook));
  }

  public async findByHash(idHash: string): Promise<CommandWebhook | undefined> {
    const doc = await this.model.findById(idHash).lean<CommandWebhookDocument>();
    return doc ? fromCommandWebhookDocument(doc) : undefined;
  }

  public async tryUse(idHash: string, maxUses: number, createdSince: number): Promise<CommandWebhook | undefined> {
    const doc = await this.model
      .findOneAndUpdate({ _id: idHash, useCount: { $lt: maxUses }, createAt: { $gte: createdSince } }, { $inc: { useCount: 1 } }, { new: true })
      .lean<CommandWebhookDocument>();
    return doc ? fromCommandWebhookDocument(doc) : undefined;
  }

  public async deleteCreatedBefore(before: number): Promise<number> {
    return (await this.model.deleteMany({ createAt: { $lt: before } })).deletedCount;
  }
}

import type { Model } from '@switchyard/mongo-kit';
import type { Emoji } from '../../domain/emoji/emoji';
import type { EmojiRepository } from '../../domain/emoji/emoji-ports';
import { asDomainError } from './mongo-support';
import { fromEmojiDocument, type EmojiDocument } from './emoji.schema.mongo';

/** A term as a regular expression that matches it literally (any character a client sends). */
const literal = (term: string): string => term.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

export class MongoEmojiRepository implements EmojiRepository {
  public constructor(private readonly model: Model<EmojiDocument>) {}

  public async insert(emoji: Emoji): Promise<void> {
    const { id, ...rest } = emoji;
    try {
      await this.model.collection.insertOne({ _id: id, ...rest } as never);
    } catch (error) {
      throw asDomainError(error, { _id: 'id', name: 'name', delete_at: 'name' });
    }
  }

  public async findById(id: string): Promise<Emoji | undefined> {
    const doc = await this.model.findOne({ _id: id, delete_at: 0 } as never).lean<EmojiDocument>();
    return doc ? fromEmojiDocument(doc) : undefined;
  }

  public async findByName(name: string): Promise<Emoji | undefined> {
    const doc = await this.model.findOne({ name: String(name), delete_at: 0 }).lean<EmojiDocument>();
    return doc ? fromEmojiDocument(doc) : undefined;
  }

  public async findByNames(names: readonly string[]): Promise<Emoji[]> {
    const docs = await this.model.find({ name: { $in: [...new Set(names.map(String))] }, delete_at: 0 }).lean<EmojiDocument[]>();
    return docs.map(fromEmojiDocument);
  }

  public async list(offset: number, limit: number, sortByName: boolean): Promise<Emoji[]> {
    if (!(limit > 0) || offset < 0) return [];
    const docs = await this.model
      .find({ delete_at: 0 })
      .sort(sortByName ? { name: 1, _id: 1 } : { create_at: 1, _id: 1 })
      .skip(offset)
      .limit(limit)
      .lean<EmojiDocument[]>();
    return docs.map(fromEmojiDocument);
  }

  public async search(term: string, prefixOnly: boolean, limit: number): Promise<Emoji[]> {
    if (!(limit > 0)) return [];
    const pattern = `${prefixOnly ? '^' : ''}${literal(String(term))}`;
    const docs = await this.model
      .find({ name: { $regex: pattern }, delete_at: 0 })
      .sort({ name: 1, _id: 1 })
      .limit(limit)
      .lean<EmojiDocument[]>();
    return docs.map(fromEmojiDocument);
  }

  public async softDelete(id: string, at: number): Promise<boolean> {
    const result = await this.model.updateOne({ _id: id, delete_at: 0 } as never, { $set: { delete_at: at, update_at: at } });
    return result.modifiedCount === 1;
  }
}

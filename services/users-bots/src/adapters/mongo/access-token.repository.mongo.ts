import type { Model } from '@switchyard/mongo-kit';
import type { AccessToken } from '../../domain/entities';
import type { AccessTokenRepository, Page } from '../../domain/ports';
import { fromAccessTokenDocument, toAccessTokenDocument, type AccessTokenDocument } from './access-token.schema.mongo';
import { asDomainError, pageWindow, type Filter } from './mongo-support';

/** Unique indexes of the access_tokens collection → the key DuplicateKeyError names. */
const UNIQUE_KEYS = { _id: 'id', tokenHash: 'tokenHash' } as const;
const OLDEST_FIRST = { createAt: 1, _id: 1 } as const;

export class MongoAccessTokenRepository implements AccessTokenRepository {
  public constructor(private readonly model: Model<AccessTokenDocument>) {}

  public async insert(token: AccessToken): Promise<void> {
    try {
      await this.model.create(toAccessTokenDocument(token));
    } catch (error) {
      throw await asDomainError(error, UNIQUE_KEYS, async () => {
        if (await this.model.exists({ _id: token.id })) return 'id';
        if (await this.model.exists({ tokenHash: token.tokenHash })) return 'tokenHash';
        return undefined;
      });
    }
  }

  public async findById(id: string): Promise<AccessToken | undefined> {
    const doc = await this.model.findById(id).lean<AccessTokenDocument>();
    return doc ? fromAccessTokenDocument(doc) : undefined;
  }

  public async findByTokenHash(tokenHash: string): Promise<AccessToken | undefined> {
    const doc = await this.model.findOne({ tokenHash }).lean<AccessTokenDocument>();
    return doc ? fromAccessTokenDocument(doc) : undefined;
  }

  public async listByUser(userId: string, page: Page): Promise<AccessToken[]> {
    return this.list({ userId }, page);
  }

  public async listAll(page: Page): Promise<AccessToken[]> {
    return this.list({}, page);
  }

  public async setActive(id: string, isActive: boolean): Promise<AccessToken | undefined> {
    const doc = await this.model.findOneAndUpdate({ _id: id }, { $set: { isActive } }, { new: true }).lean<AccessTokenDocument>();
    return doc ? fromAccessTokenDocument(doc) : undefined;
  }

  public async deleteById(id: string): Promise<boolean> {
    const result = await this.model.deleteOne({ _id: id });
    return result.deletedCount === 1;
  }

  /** Finds the user's token ids, then deletes exactly those (see MongoSessionRepository.deleteWhere). */
  public async deleteByUser(userId: string): Promise<string[]> {
    const found = await this.model.find({ userId }, { _id: 1 }).sort(OLDEST_FIRST).lean<{ _id: string }[]>();
    const ids = found.map((doc) => String(doc._id));
    if (ids.length > 0) await this.model.deleteMany({ _id: { $in: ids } });
    return ids;
  }

  private async list(filter: Filter, page: Page): Promise<AccessToken[]> {
    const window = pageWindow(page);
    if (!window) return [];
    const docs = await this.model.find(filter).sort(OLDEST_FIRST).skip(window.skip).limit(window.limit).lean<AccessTokenDocument[]>();
    return docs.map(fromAccessTokenDocument);
  }
}

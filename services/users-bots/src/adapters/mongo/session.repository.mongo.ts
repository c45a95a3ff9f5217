import type { Model } from '@switchyard/mongo-kit';
import type { Session } from '../../domain/entities';
import type { SessionRepository } from '../../domain/ports';
import { asDomainError, type Filter } from './mongo-support';
import { fromSessionDocument, toSessionDocument, type SessionDocument } from './session.schema.mongo';

/** Unique indexes of the sessions collection → the key DuplicateKeyError names. */
const UNIQUE_KEYS = { _id: 'id', tokenHash: 'tokenHash' } as const;
const OLDEST_FIRST = { createAt: 1, _id: 1 } as const;

export class MongoSessionRepository implements SessionRepository {
  public constructor(private readonly model: Model<SessionDocument>) {}

  public async insert(session: Session): Promise<void> {
    try {
      await this.model.create(toSessionDocument(session));
    } catch (error) {
      throw await asDomainError(error, UNIQUE_KEYS, async () => {
        if (await this.model.exists({ _id: session.id })) return 'id';
        if (await this.model.exists({ tokenHash: session.tokenHash })) return 'tokenHash';
        return undefined;
      });
    }
  }

  public async findById(id: string): Promise<Session | undefined> {
    const doc = await this.model.findById(id).lean<SessionDocument>();
    return doc ? fromSessionDocument(doc) : undefined;
  }

  public async findByTokenHash(tokenHash: string): Promise<Session | undefined> {
    const doc = await this.model.findOne({ tokenHash }).lean<SessionDocument>();
    return doc ? fromSessionDocument(doc) : undefined;
  }

  public async listByUser(userId: string): Promise<Session[]> {
    const docs = await this.model.find({ userId }).sort(OLDEST_FIRST).lean<SessionDocument[]>();
    return docs.map(fromSessionDocument);
  }

  public async deleteById(id: string): Promise<boolean> {
    const result = await this.model.deleteOne({ _id: id });
    return result.deletedCount === 1;
  }

  public async deleteByUser(userId: string): Promise<string[]> {
    return this.deleteWhere({ userId });
  }

  public async deleteByTokenId(tokenId: string): Promise<string[]> {
    if (tokenId === '') return []; // '' is every password session's tokenId, not a token
    return this.deleteWhere({ tokenId });
  }

  /**
   * Finds the matching ids, then deletes exactly those (no multi-document transaction): a session
   * created in between is neither deleted nor reported; one another caller deleted in between is
   * still reported, which only costs a redundant cache eviction.
   */
  private async deleteWhere(filter: Filter): Promise<string[]> {
    const found = await this.model.find(filter, { _id: 1 }).sort(OLDEST_FIRST).lean<{ _id: string }[]>();
    const ids = found.map((doc) => String(doc._id));
    if (ids.length > 0) await this.model.deleteMany({ _id: { $in: ids } });
    return ids;
  }
}

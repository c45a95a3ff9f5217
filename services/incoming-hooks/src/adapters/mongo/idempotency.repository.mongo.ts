import type { Model } from '@switchyard/mongo-kit';
import type { IdempotencyRecord, StoredResponse } from '../../domain/entities';
import { RELEASED_OWNER, type IdempotencyRepository, type ReserveResult } from '../../domain/ports';
import { idempotencyId, type IdempotencyDocument } from './idempotency.schema.mongo';
import { isUniqueViolation } from '@switchyard/mongo-kit';

function fromDocument(doc: IdempotencyDocument): IdempotencyRecord {
  return { hookId: doc.hookId, key: doc.key, owner: doc.owner, createAt: doc.createAt, ...(doc.response ? { response: doc.response } : {}) };
}

/** The claim is the unique `_id`: one insert wins; an expired record is taken over with a conditional update. */
export class MongoIdempotencyRepository implements IdempotencyRepository {
  public constructor(private readonly model: Model<IdempotencyDocument>) {}

  public async reserve(record: IdempotencyRecord, expiredBefore: number): Promise<ReserveResult> {
    const _id = idempotencyId(record.hookId, record.key);
    const doc: IdempotencyDocument = { _id, hookId: record.hookId, key: record.key, owner: record.owner, createAt: record.createAt, response: null };
    for (let attempt = 0; attempt < 3; attempt += 1) {
      try {
        await this.model.create(doc);
        return { kind: 'reserved', since: record.createAt };
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
      const existing = await this.model.findById(_id).lean<IdempotencyDocument>();
      if (!existing) continue;
      const fresh = existing.createAt >= expiredBefore;
      if (fresh && (existing.owner !== RELEASED_OWNER || existing.response)) return { kind: 'existing', record: fromDocument(existing) };
      // Expired: taken over as new. Released within the window: taken over keeping its createAt (the first try's).
      const since = fresh ? existing.createAt : record.createAt;
      const taken = await this.model
        .findOneAndUpdate({ _id, owner: existing.owner, createAt: existing.createAt }, { $set: { owner: record.owner, createAt: since, response: null } }, { new: true })
        .lean<IdempotencyDocument>();
      if (taken && taken.owner === record.owner) return { kind: 'reserved', since };
    }
    const current = await this.model.findById(_id).lean<IdempotencyDocument>();
    if (current) return { kind: 'existing', record: fromDocument(current) };
    throw new Error('idempotency reservation kept failing');
  }

  public async complete(hookId: string, key: string, owner: string, response: StoredResponse): Promise<void> {
    await this.model.updateOne({ _id: idempotencyId(hookId, key), owner }, { $set: { response } });
  }

  public async release(hookId: string, key: string, owner: string): Promise<void> {
    await this.model.updateOne({ _id: idempotencyId(hookId, key), owner, response: null }, { $set: { owner: RELEASED_OWNER } });
  }

  public async find(hookId: string, key: string): Promise<IdempotencyRecord | undefined> {
    const doc = await this.model.findById(idempotencyId(hookId, key)).lean<IdempotencyDocument>();
    return doc ? fromDocument(doc) : undefined;
  }

  public async purge(createdBefore: number): Promise<number> {
    const result = await this.model.deleteMany({ createAt: { $lt: createdBefore } });
    return result.deletedCount;
  }
}

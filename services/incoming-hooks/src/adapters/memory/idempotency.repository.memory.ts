import type { IdempotencyRecord, StoredResponse } from '../../domain/entities';
import { RELEASED_OWNER, type IdempotencyRepository, type ReserveResult } from '../../domain/ports';

const keyOf = (hookId: string, key: string): string => `${hookId}\u0000${key}`;

/** In-process idempotency records; the check-and-set of `reserve` is synchronous, hence atomic. */
export class MemoryIdempotencyRepository implements IdempotencyRepository {
  private readonly records = new Map<string, IdempotencyRecord>();

  public async reserve(record: IdempotencyRecord, expiredBefore: number): Promise<ReserveResult> {
    const id = keyOf(record.hookId, record.key);
    const existing = this.records.get(id);
    if (existing && existing.createAt >= expiredBefore) {
      if (existing.owner !== RELEASED_OWNER || existing.response) return { kind: 'existing', record: structuredClone(existing) };
      this.records.set(id, { ...existing, owner: record.owner });
      return { kind: 'reserved', since: existing.createAt };
    }
    this.records.set(id, structuredClone(record));
    return { kind: 'reserved', since: record.createAt };
  }

  public async complete(hookId: string, key: string, owner: string, response: StoredResponse): Promise<void> {
    const id = keyOf(hookId, key);
    const existing = this.records.get(id);
    if (existing && existing.owner === owner) this.records.set(id, { ...existing, response: structuredClone(response) });
  }

  public async release(hookId: string, key: string, owner: string): Promise<void> {
    const id = keyOf(hookId, key);
    const existing = this.records.get(id);
    if (existing?.owner === owner && !existing.response) this.records.set(id, { ...existing, owner: RELEASED_OWNER });
  }

  public async find(hookId: string, key: string): Promise<IdempotencyRecord | undefined> {
    const record = this.records.get(keyOf(hookId, key));
    return record ? structuredClone(record) : undefined;
  }

  public async purge(createdBefore: number): Promise<number> {
    let n = 0;
    for (const [id, record] of this.records) {
      if (record.createAt < createdBefore) {
        this.records.delete(id);
        n += 1;
      }
    }
    return n;
  }
}

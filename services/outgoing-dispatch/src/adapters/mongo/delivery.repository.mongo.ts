import { isDuplicateKeyError, type Model, setOf } from '@switchyard/mongo-kit';
import { isOrderedDelivery, type Delivery, type DeliveryChanges } from '../../domain/entities';
import type { ClaimRequest, DeliveryRepository, Page } from '../../domain/ports';
import { fromDeliveryDocument, toDeliveryDocument, type DeliveryDocument } from './delivery.schema.mongo';
import { WriteBatcher } from './write-batcher';

const ACTIVE = ['pending', 'failed'];
const IDENTITY = ['id', 'hookId', 'postId', 'createAt'];

interface Finish {
  readonly id: string;
  readonly owner: string;
  readonly set: Readonly<Record<string, unknown>>;
}

/**
 * Claims use findOneAndUpdate on the claimable condition, so exactly one instance wins each record. The two
 * writes every delivery makes (stored claimed, then finished) go through write batchers: those made while
 * the previous one of their kind is in flight share one command (ADR 0037).
 */
export class MongoDeliveryRepository implements DeliveryRepository {
  private readonly inserts: WriteBatcher<readonly Delivery[], ReadonlySet<string>>;
  private readonly finishes: WriteBatcher<Finish, boolean>;

  public constructor(private readonly model: Model<DeliveryDocument>) {
    this.inserts = new WriteBatcher((groups) => this.insertGroups(groups));
    this.finishes = new WriteBatcher((items) => this.finishAll(items));
  }

  public async insertIfAbsent(delivery: Delivery): Promise<boolean> {
    try {
      await this.model.create(toDeliveryDocument(delivery));
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error) || /duplicate key/i.test(String((error as { message?: unknown }).message))) return false;
      throw error;
    }
  }

  public async insertAllIfAbsent(deliveries: readonly Delivery[]): Promise<ReadonlySet<string>> {
    if (deliveries.length === 0) return new Set();
    return this.inserts.submit(deliveries);
  }

  /** Several callers' deliveries in one unordered insertMany; each caller gets the ids of its own that were new. */
  private async insertGroups(groups: readonly (readonly Delivery[])[]): Promise<ReadonlySet<string>[]> {
    const all = groups.flat();
    const skipped = await this.insertSkippingDuplicates(all);
    let at = 0;
    return groups.map((group) => {
      const inserted = new Set<string>();
      for (const d of group) {
        if (!skipped.has(at)) inserted.add(d.id);
        at += 1;
      }
      return inserted;
    });
  }

  /** The positions of the records that were already stored (a redelivered event); any other failure throws. */
  private async insertSkippingDuplicates(deliveries: readonly Delivery[]): Promise<ReadonlySet<number | undefined>> {
    try {
      // The driver's collection: mongoose's insertMany would cast and validate every document again.
      await this.model.collection.insertMany(deliveries.map(toDeliveryDocument) as never[], { ordered: false });
      return new Set();
    } catch (error) {
      // Unordered: every record was tried; duplicates (a redelivered event) are the only acceptable failures.
      const writeErrors = (error as { writeErrors?: unknown }).writeErrors;
      const failed = Array.isArray(writeErrors) ? (writeErrors as unknown[]) : writeErrors ? [writeErrors] : [];
      if (failed.length === 0 || !failed.every(isDuplicateWrite)) throw error;
      const skipped = new Set(failed.map(indexOf));
      if (skipped.has(undefined)) throw error;
      return skipped;
    }
  }

  public async findById(id: string): Promise<Delivery | undefined> {
    const doc = await this.model.findById(id).lean<DeliveryDocument>();
    return doc ? fromDeliveryDocument(doc) : undefined;
  }

  public async claim(id: string, request: ClaimRequest): Promise<Delivery | undefined> {
    const doc = await this.model
      .findOneAndUpdate(
        { _id: id, status: { $in: ACTIVE }, claimUntil: { $lte: request.now }, nextAttemptAt: { $lte: request.now } },
        { $set: { claimedBy: request.owner, claimUntil: request.leaseUntil } },
        { new: true },
      )
      .lean<DeliveryDocument>();
    return doc ? fromDeliveryDocument(doc) : undefined;
  }

  public async claimDue(request: ClaimRequest, limit: number): Promise<Delivery[]> {
    const claimed: Delivery[] = [];
    while (claimed.length < limit) {
      const doc = await this.model
        .findOneAndUpdate(
          { status: { $in: ACTIVE }, nextAttemptAt: { $lte: request.now }, claimUntil: { $lte: request.now } },
          { $set: { claimedBy: request.owner, claimUntil: request.leaseUntil } },
          { new: true, sort: { nextAttemptAt: 1 } },
        )
        .lean<DeliveryDocument>();
      if (!doc) break;
      claimed.push(fromDeliveryDocument(doc));
    }
    return claimed;
  }

  public async finish(id: string, owner: string, changes: DeliveryChanges): Promise<boolean> {
    // setOf gives a fresh object, completed in place (a spread followed by new keys is slow in V8).
    const set = setOf(changes, IDENTITY);
    set.claimedBy = '';
    set.claimUntil = 0;
    return this.finishes.submit({ id, owner, set });
  }

  /**
   * The driver's collection (the fields are the schema's plain strings and numbers, so mongoose's query
   * casting would only cost CPU): one updateOne, or one unordered bulk of them. A bulk reports only how many
   * matched; when some did not (a claim that ran out and moved to another instance), the records are read
   * back and a finish held exactly when its record carries what it wrote.
   */
  private async finishAll(items: readonly Finish[]): Promise<boolean[]> {
    const collection = this.model.collection;
    if (items.length === 1 && items[0]) {
      const { id, owner, set } = items[0];
      return [(await collection.updateOne({ _id: id, claimedBy: owner } as never, { $set: set })).matchedCount === 1];
    }
    const result = await collection.bulkWrite(items.map(({ id, owner, set }) => ({ updateOne: { filter: { _id: id, claimedBy: owner } as never, update: { $set: set } } })), { ordered: false });
    if (result.matchedCount === items.length) return items.map(() => true);
    const docs = await collection.find({ _id: { $in: items.map((f) => f.id) } } as never).toArray();
    const byId = new Map(docs.map((d) => [String(d._id), d as Record<string, unknown>]));
    return items.map(({ id, set }) => {
      const doc = byId.get(id);
      return doc !== undefined && Object.entries(set).every(([key, value]) => doc[key] === value);
    });
  }

  public async update(id: string, changes: DeliveryChanges): Promise<Delivery | undefined> {
    const set = setOf(changes, IDENTITY);
    const doc = await this.model.findOneAndUpdate({ _id: id }, { $set: set }, { new: true }).lean<DeliveryDocument>();
    return doc ? fromDeliveryDocument(doc) : undefined;
  }

  public async listByHook(hookId: string, page: Page): Promise<Delivery[]> {
    if (!(page.perPage > 0) || page.page < 0) return [];
    const docs = await this.model.find({ hookId }).sort({ createAt: -1, _id: -1 }).skip(page.page * page.perPage).limit(page.perPage).lean<DeliveryDocument[]>();
    return docs.map(fromDeliveryDocument);
  }

  public async earliestWaitingBefore(chain: Pick<Delivery, 'hookId' | 'channelId' | 'url'>, createAt: number): Promise<Delivery | undefined> {
    // The filter has exactly the chain index's fields (mongo-java-server uses an index only then); `ordered` is
    // checked here. Unordered ones in an ordered chain are rare (stored before its hook heard more than `posted`).
    const filter = { hookId: chain.hookId, channelId: chain.channelId, url: chain.url, status: { $in: ACTIVE }, createAt: { $lt: createAt } };
    const first = await this.model.findOne(filter).sort({ createAt: 1, _id: 1 }).lean<DeliveryDocument>();
    if (!first || isOrderedDelivery(first)) return first ? fromDeliveryDocument(first) : undefined;
    const docs = await this.model.find(filter).sort({ createAt: 1, _id: 1 }).lean<DeliveryDocument[]>();
    const doc = docs.find(isOrderedDelivery);
    return doc ? fromDeliveryDocument(doc) : undefined;
  }

  public async countWaiting(): Promise<number> {
    return this.model.countDocuments({ status: { $in: ACTIVE } });
  }

  public async nextDueAt(): Promise<number | undefined> {
    const docs = await this.model.find({ status: { $in: ACTIVE } }).sort({ nextAttemptAt: 1 }).limit(50).lean<DeliveryDocument[]>();
    let next: number | undefined;
    for (const d of docs) {
      const at = Math.max(d.nextAttemptAt, d.claimUntil);
      if (next === undefined || at < next) next = at;
    }
    return next;
  }
}

/** The position in the batch of an unordered insertMany's write error (undefined when the driver gives none). */
function indexOf(writeError: unknown): number | undefined {
  const e = writeError as { index?: unknown; err?: { index?: unknown } };
  const index = e.index ?? e.err?.index;
  return typeof index === 'number' ? index : undefined;
}

function isDuplicateWrite(writeError: unknown): boolean {
  const e = writeError as { code?: unknown; errmsg?: unknown; err?: { code?: unknown; errmsg?: unknown } };
  const code = e.code ?? e.err?.code;
  return code === 11000 || /duplicate key/i.test(String(e.errmsg ?? e.err?.errmsg ?? ''));
}

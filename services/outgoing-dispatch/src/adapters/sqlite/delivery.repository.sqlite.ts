import { definedChanges, fromDoc, fromDocs, pageWindow, type DocRow, type SqliteStore } from '@switchyard/sqlite-kit';
import { isOrderedDelivery, type Delivery, type DeliveryChanges } from '../../domain/entities';
import { isClaimable, type ClaimRequest, type DeliveryRepository, type Page } from '../../domain/ports';

const IMMUTABLE = ['id', 'hookId', 'postId', 'createAt'];

function columns(d: Delivery): unknown[] {
  return [d.id, d.hookId, d.status, d.createAt, d.nextAttemptAt, d.claimedBy, d.claimUntil, isOrderedDelivery(d) ? 1 : 0, JSON.stringify(d)];
}

/**
 * Deliveries in the embedded store: the delivery log and the retry queue survive restarts. Claims read
 * and write in one synchronous write, so they are atomic, as the port requires.
 */
export class SqliteDeliveryRepository implements DeliveryRepository {
  private readonly insertRow;
  private readonly replaceRow;
  private readonly finishRow;
  private readonly byId;
  private readonly due;
  private readonly byHook;
  private readonly nextDue;
  private readonly waiting;
  private readonly waitingInChain;

  public constructor(private readonly store: SqliteStore) {
    const db = store.db;
    this.insertRow = db.prepare(
      'INSERT INTO od_deliveries (id, hook_id, status, create_at, next_attempt_at, claimed_by, claim_until, ordered, doc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING',
    );
    this.replaceRow = db.prepare('UPDATE od_deliveries SET id = ?, hook_id = ?, status = ?, create_at = ?, next_attempt_at = ?, claimed_by = ?, claim_until = ?, ordered = ?, doc = ? WHERE id = ?');
    // A finish in one statement: the result merged into the stored document (json_patch) and the claim released,
    // only while `owner` holds it; no read, no parse and no re-serialising of the record (body included).
    this.finishRow = db.prepare<[string | null, number | null, string, string, string]>(
      "UPDATE od_deliveries SET status = coalesce(?, status), next_attempt_at = coalesce(?, next_attempt_at), claimed_by = '', claim_until = 0, doc = json_patch(doc, ?) WHERE id = ? AND claimed_by = ?",
    );
    this.byId = db.prepare<[string], DocRow>('SELECT doc FROM od_deliveries WHERE id = ?');
    this.due = db.prepare<[number, number, number], DocRow>(
      "SELECT doc FROM od_deliveries WHERE status IN ('pending', 'failed') AND next_attempt_at <= ? AND claim_until <= ? ORDER BY next_attempt_at, id LIMIT ?",
    );
    this.byHook = db.prepare<[string, number, number], DocRow>('SELECT doc FROM od_deliveries WHERE hook_id = ? ORDER BY create_at DESC, id DESC LIMIT ? OFFSET ?');
    // od_deliveries_waiting holds only ordered pending/failed rows: a hook's history is not scanned.
    this.waitingInChain = db.prepare<[string, number, string, string], DocRow>(
      "SELECT doc FROM od_deliveries WHERE hook_id = ? AND status IN ('pending', 'failed') AND ordered = 1 AND create_at < ? AND json_extract(doc, '$.channelId') = ? AND json_extract(doc, '$.url') = ? ORDER BY create_at, id LIMIT 1",
    );
    this.waiting = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM od_deliveries WHERE status IN ('pending', 'failed')");
    this.nextDue = db.prepare<[], { at: number | null }>("SELECT min(max(next_attempt_at, claim_until)) AS at FROM od_deliveries WHERE status IN ('pending', 'failed')");
  }

  public async insertIfAbsent(delivery: Delivery): Promise<boolean> {
    return this.store.write(() => this.insertRow.run(...columns(delivery)).changes === 1);
  }

  // insertAllIfAbsent and finish hand back the store's promise (no async wrapper: one promise less per delivery).
  public insertAllIfAbsent(deliveries: readonly Delivery[]): Promise<ReadonlySet<string>> {
    return this.store.write(() => new Set(deliveries.filter((d) => this.insertRow.run(...columns(d)).changes === 1).map((d) => d.id)));
  }

  public async findById(id: string): Promise<Delivery | undefined> {
    return fromDoc<Delivery>(this.byId.get(id));
  }

  public async claim(id: string, request: ClaimRequest): Promise<Delivery | undefined> {
    return this.store.write(() => {
      const found = fromDoc<Delivery>(this.byId.get(id));
      if (!found || !isClaimable(found, request)) return undefined;
      return this.save({ ...found, claimedBy: request.owner, claimUntil: request.leaseUntil });
    });
  }

  public async claimDue(request: ClaimRequest, limit: number): Promise<Delivery[]> {
    if (!(limit > 0)) return [];
    return this.store.write(() =>
      fromDocs<Delivery>(this.due.all(request.now, request.now, limit)).map((d) => this.save({ ...d, claimedBy: request.owner, claimUntil: request.leaseUntil })),
    );
  }

  public finish(id: string, owner: string, changes: DeliveryChanges): Promise<boolean> {
    return this.store.writeOne(() => {
      // A fresh object from definedChanges, completed in place (a spread followed by new keys is slow in V8).
      const patch: DeliveryChanges = definedChanges(changes, IMMUTABLE);
      Object.assign(patch, { claimedBy: '', claimUntil: 0 });
      return this.finishRow.run(patch.status ?? null, patch.nextAttemptAt ?? null, JSON.stringify(patch), id, owner).changes === 1;
    });
  }

  public async update(id: string, changes: DeliveryChanges): Promise<Delivery | undefined> {
    return this.store.write(() => {
      const found = fromDoc<Delivery>(this.byId.get(id));
      return found ? this.save({ ...found, ...definedChanges(changes, IMMUTABLE) }) : undefined;
    });
  }

  public async listByHook(hookId: string, page: Page): Promise<Delivery[]> {
    const window = pageWindow(page);
    return window ? fromDocs<Delivery>(this.byHook.all(hookId, window.limit, window.offset)) : [];
  }

  public async earliestWaitingBefore(chain: Pick<Delivery, 'hookId' | 'channelId' | 'url'>, createAt: number): Promise<Delivery | undefined> {
    return fromDoc<Delivery>(this.waitingInChain.get(chain.hookId, createAt, chain.channelId, chain.url));
  }

  public async nextDueAt(): Promise<number | undefined> {
    return this.nextDue.get()?.at ?? undefined;
  }

  public async countWaiting(): Promise<number> {
    return this.waiting.get()?.n ?? 0;
  }

  private save(delivery: Delivery): Delivery {
    this.replaceRow.run(...columns(delivery), delivery.id);
    return delivery;
  }
}


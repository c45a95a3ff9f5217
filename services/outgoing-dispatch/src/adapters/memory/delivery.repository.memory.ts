import { isOrderedDelivery, type Delivery, type DeliveryChanges } from '../../domain/entities';
import { isClaimable, type ClaimRequest, type DeliveryRepository, type Page } from '../../domain/ports';

const copy = (delivery: Delivery): Delivery => structuredClone(delivery);
const defined = (changes: DeliveryChanges): DeliveryChanges => Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));

/** Claims are atomic here because each method runs to completion without awaiting in between. */
export class MemoryDeliveryRepository implements DeliveryRepository {
  private readonly deliveries = new Map<string, Delivery>();

  public async insertIfAbsent(delivery: Delivery): Promise<boolean> {
    if (this.deliveries.has(delivery.id)) return false;
    this.deliveries.set(delivery.id, copy(delivery));
    return true;
  }

  public async insertAllIfAbsent(deliveries: readonly Delivery[]): Promise<ReadonlySet<string>> {
    const inserted = new Set<string>();
    for (const delivery of deliveries) if (await this.insertIfAbsent(delivery)) inserted.add(delivery.id);
    return inserted;
  }

  public async findById(id: string): Promise<Delivery | undefined> {
    const found = this.deliveries.get(id);
    return found ? copy(found) : undefined;
  }

  public async claim(id: string, request: ClaimRequest): Promise<Delivery | undefined> {
    const found = this.deliveries.get(id);
    if (!found || !isClaimable(found, request)) return undefined;
    const claimed = { ...found, claimedBy: request.owner, claimUntil: request.leaseUntil };
    this.deliveries.set(id, claimed);
    return copy(claimed);
  }

  public async claimDue(request: ClaimRequest, limit: number): Promise<Delivery[]> {
    const due = [...this.deliveries.values()]
      .filter((d) => isClaimable(d, { now: request.now }))
      .sort((a, b) => a.nextAttemptAt - b.nextAttemptAt)
      .slice(0, Math.max(0, limit));
    return due.map((d) => {
      const claimed = { ...d, claimedBy: request.owner, claimUntil: request.leaseUntil };
      this.deliveries.set(d.id, claimed);
      return copy(claimed);
    });
  }

  public async finish(id: string, owner: string, changes: DeliveryChanges): Promise<boolean> {
    const found = this.deliveries.get(id);
    if (!found || found.claimedBy !== owner) return false;
    this.deliveries.set(id, { ...found, ...defined(changes), claimedBy: '', claimUntil: 0 });
    return true;
  }

  public async update(id: string, changes: DeliveryChanges): Promise<Delivery | undefined> {
    const found = this.deliveries.get(id);
    if (!found) return undefined;
    const updated = { ...found, ...defined(changes) };
    this.deliveries.set(id, updated);
    return copy(updated);
  }

  public async listByHook(hookId: string, page: Page): Promise<Delivery[]> {
    if (!(page.perPage > 0) || page.page < 0) return [];
    return [...this.deliveries.values()]
      .filter((d) => d.hookId === hookId)
      .sort((a, b) => b.createAt - a.createAt || (a.id < b.id ? 1 : -1))
      .slice(page.page * page.perPage, (page.page + 1) * page.perPage)
      .map(copy);
  }

  public async earliestWaitingBefore(chain: Pick<Delivery, 'hookId' | 'channelId' | 'url'>, createAt: number): Promise<Delivery | undefined> {
    let found: Delivery | undefined;
    for (const d of this.deliveries.values()) {
      if (d.hookId !== chain.hookId || d.channelId !== chain.channelId || d.url !== chain.url || d.createAt >= createAt) continue;
      if ((d.status !== 'pending' && d.status !== 'failed') || !isOrderedDelivery(d)) continue;
      if (!found || d.createAt < found.createAt || (d.createAt === found.createAt && d.id < found.id)) found = d;
    }
    return found ? copy(found) : undefined;
  }

  public async countWaiting(): Promise<number> {
    let count = 0;
    for (const d of this.deliveries.values()) if (d.status === 'pending' || d.status === 'failed') count += 1;
    return count;
  }

  public async nextDueAt(): Promise<number | undefined> {
    let next: number | undefined;
    for (const d of this.deliveries.values()) {
      if ((d.status !== 'pending' && d.status !== 'failed') || !isOrderedDelivery(d)) continue;
      const at = Math.max(d.nextAttemptAt, d.claimUntil);
      if (next === undefined || at < next) next = at;
    }
    return next;
  }
}


/**
 * Bounds the delivery attempts one instance runs at once (`DELIVERY_CONCURRENCY`). A caller reserves all
 * the slots it needs at once, before it claims the records, so a claim's lease starts when its attempt can
 * start; reservations are granted in arrival order, whole, so two callers never each hold part of what
 * they need while waiting for the rest.
 */
export class AttemptSlots {
  private free: number;
  private readonly waiting: { readonly count: number; readonly grant: () => void }[] = [];
  private readonly running = new Set<Promise<unknown>>();

  public constructor(public readonly capacity: number) {
    if (!(capacity >= 1)) throw new RangeError('capacity must be at least 1');
    this.free = capacity;
  }

  /** Resolves once `count` slots (at most the capacity) are reserved for the caller. */
  public async reserve(count: number): Promise<Reservation> {
    const wanted = Math.min(Math.max(0, Math.floor(count)), this.capacity);
    if (this.waiting.length === 0 && this.free >= wanted) this.free -= wanted;
    else await new Promise<void>((grant) => this.waiting.push({ count: wanted, grant }));
    return new Reservation(wanted, this);
  }

  /** Waits for every attempt started so far (shutdown). */
  public async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** @internal Reservation.run */
  public track(task: () => Promise<unknown>, done: () => void): void {
    const promise = Promise.resolve()
      .then(task)
      .catch(() => undefined)
      .finally(() => {
        this.running.delete(promise);
        done();
      });
    this.running.add(promise);
  }

  /** @internal a reservation gives slots back */
  public release(count: number): void {
    this.free += count;
    for (let next = this.waiting[0]; next && this.free >= next.count; next = this.waiting[0]) {
      this.waiting.shift();
      this.free -= next.count;
      next.grant();
    }
  }
}

/** Slots reserved by one caller: each `run` uses one until its task settles; `release` returns the unused. */
export class Reservation {
  public constructor(private left: number, private readonly slots: AttemptSlots) {}

  public get size(): number {
    return this.left;
  }

  /** Starts the task on one of the reserved slots (false when none is left). */
  public run(task: () => Promise<unknown>): boolean {
    if (this.left === 0) return false;
    this.left -= 1;
    this.slots.track(task, () => this.slots.release(1));
    return true;
  }

  public release(): void {
    const unused = this.left;
    this.left = 0;
    if (unused > 0) this.slots.release(unused);
  }
}

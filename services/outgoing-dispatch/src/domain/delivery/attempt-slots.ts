/**
 * Bounds the delivery attempts one instance runs at once (`DELIVERY_CONCURRENCY`). A caller reserves slots
 * before it claims the records, so a claim's lease starts when its attempt can start. A reservation waits
 * for one free slot and gets as many as are free then, up to what it asked (the caller claims and starts
 * that many and asks again for the rest): nobody holds slots while waiting for more, and a post's
 * deliveries do not wait for its previous post's slowest attempt. Waiters are served in arrival order.
 */
export class AttemptSlots {
  private free: number;
  private readonly waiting: { readonly count: number; readonly grant: (count: number) => void }[] = [];
  private readonly running = new Set<Promise<unknown>>();

  public constructor(public readonly capacity: number) {
    if (!(capacity >= 1)) throw new RangeError('capacity must be at least 1');
    this.free = capacity;
  }

  /** Resolves once at least one slot is free, with as many of the `count` wanted as are free (0 for 0). */
  public async reserve(count: number): Promise<Reservation> {
    const wanted = Math.min(Math.max(0, Math.floor(count)), this.capacity);
    if (wanted === 0) return new Reservation(0, this);
    if (this.waiting.length === 0 && this.free > 0) {
      const granted = Math.min(wanted, this.free);
      this.free -= granted;
      return new Reservation(granted, this);
    }
    const granted = await new Promise<number>((grant) => this.waiting.push({ count: wanted, grant }));
    return new Reservation(granted, this);
  }

  /** Waits for every attempt started so far (shutdown). */
  public async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** @internal Reservation.run */
  public track(task: () => Promise<unknown>, done: () => void): void {
    // The task starts in a microtask; its end (fulfilled or rejected) runs `ended` once. Two links, not
    // catch + finally: fewer promises per delivery (each costs more while async hooks are on).
    const ended = (): void => {
      this.running.delete(promise);
      done();
    };
    const promise: Promise<void> = Promise.resolve().then(task).then(ended, ended);
    this.running.add(promise);
  }

  /** @internal a reservation gives slots back */
  public release(count: number): void {
    this.free += count;
    for (let next = this.waiting[0]; next && this.free > 0; next = this.waiting[0]) {
      this.waiting.shift();
      const granted = Math.min(next.count, this.free);
      this.free -= granted;
      next.grant(granted);
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

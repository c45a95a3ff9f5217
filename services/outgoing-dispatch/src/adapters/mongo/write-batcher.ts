interface Waiting<T, R> {
  readonly item: T;
  readonly resolve: (result: R) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Group commit for one kind of store write: a call made while no batch is in flight is sent at once, alone
 * (no timer, no added latency); calls made while one is in flight wait for it and then go together, in
 * arrival order, as the next batch (at most `maxBatch`). Each call gets its own item's result; a batch that
 * throws rejects each of its calls with that error. On this box every MongoDB command costs both ends a
 * socket write and a wake-up, so the deliveries of one post, which end within a millisecond of each other,
 * share one command instead of paying one each.
 */
export class WriteBatcher<T, R> {
  private readonly queue: Waiting<T, R>[] = [];
  private running = false;

  public constructor(
    private readonly write: (items: readonly T[]) => Promise<readonly R[]>,
    private readonly maxBatch = 500,
  ) {}

  public submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        try {
          const results = await this.write(batch.map((w) => w.item));
          batch.forEach((w, i) => w.resolve(results[i] as R));
        } catch (error) {
          for (const w of batch) w.reject(error);
        }
      }
    } finally {
      this.running = false;
    }
  }
}

/** Runs tasks one at a time per key (in arrival order); different keys run concurrently. */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<void>>();

  public async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key);
    let release: () => void = () => undefined;
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous ? previous.then(() => done) : done;
    this.tails.set(key, tail);
    try {
      if (previous) await previous;
      return await task();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}

/**
 * Per partition, where the journal's committed and synced messages end: the offsets below it survive a
 * crash (SIGKILL or power loss), so nothing that shows them outside the process (a WebSocket frame and its
 * event cursor) can later see them reused by another message. The messages of each commit become durable
 * when the store's flush after it resolves (commits are ordered: one promise per commit, not per message).
 */
export class DurableEnds {
  /** Partition key → end of what is on disk. */
  private readonly ends = new Map<string, number>();
  /** Partition key → end of what was appended (durable or not). */
  private readonly appended = new Map<string, number>();
  /** Ends of the messages appended for the commit being prepared (undefined: none yet). */
  private batch: Map<string, number> | undefined;
  private readonly waiters = new Map<string, { offset: number; resolve: () => void; reject: (error: unknown) => void }[]>();
  private failure: unknown;

  /** Loaded from the store at start: on disk already. */
  public loaded(key: string, end: number): void {
    this.ends.set(key, Math.max(this.ends.get(key) ?? 0, end));
    this.appended.set(key, Math.max(this.appended.get(key) ?? 0, end));
  }

  /**
   * A message appended for the open transaction; `flushed` is called once per commit (the first append of
   * it) and must resolve once that commit is on disk.
   */
  public appendedTo(key: string, offset: number, flushed: () => Promise<void>): void {
    this.appended.set(key, Math.max(this.appended.get(key) ?? 0, offset + 1));
    let batch = this.batch;
    if (!batch) {
      const ends = new Map<string, number>();
      batch = ends;
      this.batch = ends;
      flushed().then(
        () => this.reached(ends),
        (error: unknown) => this.failed(error),
      );
    }
    batch.set(key, Math.max(batch.get(key) ?? 0, offset + 1));
  }

  /** The commit being prepared is sealed (its hook ran): later appends belong to the next one. */
  public sealed(): void {
    this.batch = undefined;
  }

  /**
   * Undefined when the message at `offset` is on disk (or was never appended here); else a promise that
   * resolves once it is (rejects when the store failed before).
   */
  public when(key: string, offset: number): Promise<void> | undefined {
    if (offset < (this.ends.get(key) ?? 0) || offset >= (this.appended.get(key) ?? 0)) return undefined;
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      let list = this.waiters.get(key);
      if (!list) this.waiters.set(key, (list = []));
      list.push({ offset, resolve, reject });
    });
  }

  private reached(batch: ReadonlyMap<string, number>): void {
    for (const [key, end] of batch) {
      this.ends.set(key, Math.max(this.ends.get(key) ?? 0, end));
      const list = this.waiters.get(key);
      if (!list) continue;
      const still = list.filter((w) => w.offset >= end);
      for (const w of list) if (w.offset < end) w.resolve();
      if (still.length > 0) this.waiters.set(key, still);
      else this.waiters.delete(key);
    }
  }

  private failed(error: unknown): void {
    this.failure = error;
    for (const list of this.waiters.values()) for (const w of list) w.reject(error);
    this.waiters.clear();
  }
}

import { onePost, type PostCounts } from '../../domain/ports';

interface Batch {
  posts: number;
  roots: number;
  lastPostAt: number;
  lastRootPostAt: number;
  readonly waiters: { resolve(): void; reject(error: unknown): void }[];
}

/**
 * Counts new posts per channel with at most one counter write in flight per channel: a post counted while
 * its channel's write runs joins the next write, which goes out as soon as that one finished (no timer), so
 * a busy channel pays one write per round trip instead of one per post. Each caller's promise settles with
 * the write that carried its count (resolved once stored, rejected with that write's error).
 */
export class PostCountBatcher {
  private readonly waiting = new Map<string, Batch>();
  private readonly writing = new Set<string>();
  /** The writes running now (a batch waiting behind one starts as soon as it settles). */
  private readonly running = new Set<Promise<void>>();

  public constructor(private readonly write: (channelId: string, counts: PostCounts) => Promise<void>) {}

  /** Resolves when no counter write is waiting or running (a clean stop waits for them). */
  public async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  public add(channelId: string, at: number, root: boolean): Promise<void> {
    return this.addCounts(channelId, onePost(at, root));
  }

  /** Counts several posts of a channel (they join the channel's next write like as many `add` calls). */
  public addCounts(channelId: string, counts: PostCounts): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const batch = this.waiting.get(channelId);
      if (batch) {
        batch.posts += counts.posts;
        batch.roots += counts.roots;
        batch.lastPostAt = Math.max(batch.lastPostAt, counts.lastPostAt);
        if (counts.roots > 0) batch.lastRootPostAt = Math.max(batch.lastRootPostAt, counts.lastRootPostAt);
        batch.waiters.push({ resolve, reject });
      } else {
        this.waiting.set(channelId, { ...counts, lastRootPostAt: counts.roots > 0 ? counts.lastRootPostAt : 0, waiters: [{ resolve, reject }] });
      }
      if (!this.writing.has(channelId)) this.flush(channelId);
    });
  }

  private flush(channelId: string): void {
    const batch = this.waiting.get(channelId);
    if (!batch) return;
    this.waiting.delete(channelId);
    this.writing.add(channelId);
    const { waiters, ...counts } = batch;
    // The next write starts before these callers go on, so a post they count next joins a later batch.
    const settle = (each: (waiter: Batch['waiters'][number]) => void): void => {
      this.writing.delete(channelId);
      this.flush(channelId);
      waiters.forEach(each);
    };
    const running: Promise<void> = this.write(channelId, counts).then(
      () => settle((w) => w.resolve()),
      (error: unknown) => settle((w) => w.reject(error)),
    );
    this.running.add(running);
    void running.finally(() => this.running.delete(running));
  }
}

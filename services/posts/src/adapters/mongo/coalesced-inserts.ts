import type { InsertManyResult } from '../../domain/ports';

interface Waiting<T> {
  readonly item: T;
  resolve(): void;
  reject(error: unknown): void;
}

/** Most items one write takes (a bigger backlog goes out in several writes, one after the other). */
const MAX_PER_WRITE = 100;

/**
 * Single inserts with at most one write in flight: an insert asked for while a write runs joins the next
 * write, which goes out as soon as that one finished (no timer), so concurrent `POST /api/v4/posts` share one
 * store command instead of paying one each (ADR 0015 addendum, session 11); a lone insert goes out at once.
 * Each caller's promise settles with the write that carried its item: resolved once stored, rejected with
 * `duplicate()` when its key existed (before, or earlier in the same write), or with the write's error (a
 * failed write fails every item of it; some of them may be stored, as with any failed write).
 */
export class CoalescedInserts<T> {
  private waiting: Waiting<T>[] = [];
  private writing = false;

  public constructor(
    /** Writes the items in one store call; reports the positions of the ones whose key existed. */
    private readonly writeMany: (items: readonly T[]) => Promise<InsertManyResult>,
    private readonly duplicate: () => Error,
  ) {}

  public insert(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.writing) this.flush();
    });
  }

  private flush(): void {
    if (this.waiting.length === 0) {
      this.writing = false;
      return;
    }
    this.writing = true;
    const batch = this.waiting.length <= MAX_PER_WRITE ? this.waiting : this.waiting.slice(0, MAX_PER_WRITE);
    this.waiting = batch === this.waiting ? [] : this.waiting.slice(MAX_PER_WRITE);
    let written: Promise<InsertManyResult>;
    try {
      written = this.writeMany(batch.map((w) => w.item));
    } catch (error) {
      written = Promise.reject(error);
    }
    // The next write starts before these callers go on, so an insert they ask for next joins a later write.
    written.then(
      ({ duplicates }) => {
        this.flush();
        const existed = new Set(duplicates);
        batch.forEach((w, at) => (existed.has(at) ? w.reject(this.duplicate()) : w.resolve()));
      },
      (error: unknown) => {
        this.flush();
        for (const w of batch) w.reject(error);
      },
    );
  }
}

import { fdatasync } from 'node:fs';
import type Database from 'better-sqlite3';

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Group commit on one SQLite connection (WAL, synchronous=NORMAL).
 *
 * Writes run at once, synchronously, inside one open transaction shared by every write of the current
 * event-loop turn (each in its own savepoint, so a failing write undoes only itself). The transaction
 * commits on `setImmediate`, then one `fdatasync` of the WAL file on the libuv thread pool makes the
 * batch durable, and only then do the writes' promises resolve: a caller that answers 2xx after
 * awaiting a write has its change on disk. While a sync runs, later batches commit and wait for the
 * next one, so one fsync covers many requests and the event loop never blocks on the disk.
 *
 * Why not synchronous=FULL: it fsyncs inside COMMIT, on the event loop. fdatasync of the WAL file on
 * another descriptor flushes the same inode, which is what FULL's sync at commit does.
 */
export class GroupCommit {
  private open = false;
  private inBatch: Waiter[] = [];
  private committed: Waiter[] = [];
  private syncing = false;
  private failure: unknown;
  private readonly begin: Database.Statement;
  private readonly commitStatement: Database.Statement;
  private readonly savepoint: Database.Statement;
  private readonly release: Database.Statement;
  private readonly rollbackTo: Database.Statement;
  private idleWaiters: (() => void)[] = [];

  public constructor(
    private readonly db: Database.Database,
    private readonly walFd: number,
  ) {
    this.begin = db.prepare('BEGIN');
    this.commitStatement = db.prepare('COMMIT');
    this.savepoint = db.prepare('SAVEPOINT w');
    this.release = db.prepare('RELEASE w');
    this.rollbackTo = db.prepare('ROLLBACK TO w');
  }

  /** Runs `fn` now in the shared transaction; resolves with its result once the change is durable. */
  public write<T>(fn: () => T): Promise<T> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (!this.open) {
      this.begin.run();
      this.open = true;
      setImmediate(() => this.commit());
    }
    let result: T;
    this.savepoint.run();
    try {
      result = fn();
    } catch (error) {
      this.rollbackTo.run();
      this.release.run();
      return Promise.reject(error);
    }
    this.release.run();
    return new Promise<T>((resolve, reject) => {
      this.inBatch.push({ resolve: () => resolve(result), reject });
    });
  }

  /** Resolves once everything written so far is durable. */
  public flush(): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (!this.open && !this.syncing && this.committed.length === 0) return Promise.resolve();
    if (!this.open) {
      return new Promise((resolve, reject) => {
        this.committed.push({ resolve, reject });
        this.sync();
      });
    }
    return new Promise((resolve, reject) => this.inBatch.push({ resolve, reject }));
  }

  /** Commits the open batch at once (before a backup or close). */
  public commitNow(): void {
    if (this.open) this.commit();
  }

  /** Resolves when no batch is open or syncing. */
  public async idle(): Promise<void> {
    this.commitNow();
    if (!this.syncing && this.committed.length === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  private commit(): void {
    if (!this.open) return;
    const batch = this.inBatch;
    this.inBatch = [];
    this.open = false;
    try {
      this.commitStatement.run();
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      for (const waiter of batch) waiter.reject(error);
      return;
    }
    this.committed.push(...batch);
    this.sync();
  }

  private sync(): void {
    if (this.syncing) return;
    if (this.committed.length === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const done of waiters) done();
      return;
    }
    this.syncing = true;
    const batch = this.committed;
    this.committed = [];
    fdatasync(this.walFd, (error) => {
      this.syncing = false;
      if (error) {
        // After a failed fsync the kernel may have dropped the dirty pages: nothing after it can be
        // trusted, so every later write fails too (the process should restart and recover from the WAL).
        this.failure = error;
        for (const waiter of [...batch, ...this.committed]) waiter.reject(error);
        this.committed = [];
      } else {
        for (const waiter of batch) waiter.resolve();
      }
      this.sync();
    });
  }
}

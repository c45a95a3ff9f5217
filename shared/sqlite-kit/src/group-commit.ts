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
 * event-loop turn (each in its own savepoint, so a failing write undoes only itself), and each write's
 * promise resolves at once with its result: the process has one connection, so every later read sees
 * the change, and the services' internal pipelines (consumers, outbox, deliveries) go on at memory
 * speed within the turn instead of waiting a turn per write. The transaction commits on `setImmediate`.
 * After every commit one `fdatasync` of the WAL file runs on the libuv thread pool; `flush()` resolves
 * once everything written before it is committed and on disk. The embedded runtime awaits `flush()`
 * before any answer leaves the process, so an acknowledged change is durable: WAL commits are ordered, so
 * the sync that covers a request's last write covers every write before it (an outbox row cleared in a
 * later commit than its message can never be durable without it). While a sync runs, later commits wait
 * for the next one, so one fsync covers many requests and the event loop never blocks on the disk.
 *
 * A batch opened while a sync runs still commits at the end of its turn, so its COMMIT overlaps the disk's
 * work instead of following it. Holding it open until the sync ended (one COMMIT per sync) was tried: 25-30 %
 * fewer COMMITs under the hook bench, but every step of a one-at-a-time flow (post, then the deliveries it
 * causes) then waited for a COMMIT after each sync: post -> callback p50 +2-5 ms at load 12-16.
 *
 * A failed COMMIT or fsync is fatal to the store: the writes it held had already resolved and the
 * process acted on them, so nothing after it can be trusted. Every later write and flush rejects (answers
 * become 500) and `healthy` turns false; a restart recovers the last durable state from the WAL, and the
 * bus and outboxes are rebuilt from it.
 *
 * Why not synchronous=FULL: it fsyncs inside COMMIT, on the event loop. fdatasync of the WAL file on
 * another descriptor flushes the same inode, which is what FULL's sync at commit does.
 *
 * A batch that has changed nothing yet (a periodic job's write that found nothing to claim) holds no
 * answer: `flush()` waits for the open transaction only once it has changed a row or has a hook to run
 * before its COMMIT, and a commit that changed nothing needs no sync. Changes are counted with SQLite's
 * `total_changes()` (every row inserted, updated or deleted, triggers included); schema changes are not
 * counted, and run as migrations outside group writes.
 */
export class GroupCommit {
  private open = false;
  /** Run inside the open transaction just before its COMMIT (once each). */
  private beforeCommitHooks: (() => void)[] = [];
  /** flush() callers waiting for the open transaction's commit and the sync after it. */
  private flushesAfterCommit: Waiter[] = [];
  /** flush() callers waiting for the next sync. */
  private flushesAfterSync: Waiter[] = [];
  /** Commits not yet covered by a finished or running sync. */
  private unsynced = false;
  private syncing = false;
  private failure: unknown;
  private readonly begin: Database.Statement;
  private readonly commitStatement: Database.Statement;
  private readonly savepoint: Database.Statement;
  private readonly release: Database.Statement;
  private readonly rollbackTo: Database.Statement;
  private readonly totalChanges: Database.Statement<[], number>;
  /** total_changes() when the open transaction began. */
  private changesAtBegin = 0;
  private idleWaiters: (() => void)[] = [];

  /**
   * `syncWal`: makes the WAL durable and calls back (default `fdatasync` of `walFd` on the libuv pool; a test
   * passes one it completes by hand).
   */
  public constructor(
    private readonly db: Database.Database,
    walFd: number,
    private readonly syncWal: (done: (error: NodeJS.ErrnoException | null) => void) => void = (done) => fdatasync(walFd, done),
  ) {
    this.begin = db.prepare('BEGIN');
    this.commitStatement = db.prepare('COMMIT');
    this.savepoint = db.prepare('SAVEPOINT w');
    this.release = db.prepare('RELEASE w');
    this.rollbackTo = db.prepare('ROLLBACK TO w');
    this.totalChanges = db.prepare<[], number>('SELECT total_changes()').pluck();
  }

  /** False once a commit or sync failed (the store then refuses every write). */
  public get healthy(): boolean {
    return this.failure === undefined;
  }

  /** Runs `fn` now in the shared transaction; resolves with its result (committed at the end of the turn). */
  public write<T>(fn: () => T): Promise<T> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    let result: T;
    try {
      this.openTransaction();
      this.savepoint.run();
    } catch (error) {
      return Promise.reject(error);
    }
    try {
      result = fn();
    } catch (error) {
      this.rollbackTo.run();
      this.release.run();
      return Promise.reject(error);
    }
    this.release.run();
    return Promise.resolve(result);
  }

  /**
   * `write` without the savepoint, for a `fn` whose changes are one statement: a statement that fails
   * (constraint, conflict) is undone by SQLite itself and leaves the transaction open, so the savepoint
   * would only cost two more statements per write.
   */
  public writeOne<T>(fn: () => T): Promise<T> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    try {
      this.openTransaction();
      return Promise.resolve(fn());
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Runs `hook` inside the open transaction (opened now if none is) just before it commits: work that is
   * cheaper once per batch than once per write (the event journal's messages and positions). A hook that
   * throws fails the commit, and the store with it (as a failed COMMIT does).
   */
  public beforeCommit(hook: () => void): void {
    if (this.failure !== undefined) throw this.failure;
    this.openTransaction();
    this.beforeCommitHooks.push(hook);
  }

  /** Resolves once everything written so far is on disk. */
  public flush(): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.open && this.openBatchChanges()) return new Promise((resolve, reject) => this.flushesAfterCommit.push({ resolve, reject }));
    if (!this.unsynced && !this.syncing) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.flushesAfterSync.push({ resolve, reject });
      this.sync();
    });
  }

  /** Commits the open batch at once (before a migration, a backup or close). */
  public commitNow(): void {
    if (this.open) this.commit();
  }

  /** Resolves when no batch is open and everything committed is on disk. */
  public async idle(): Promise<void> {
    this.commitNow();
    await this.flush().catch(() => undefined);
    if (!this.syncing) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  private openTransaction(): void {
    if (this.open) return;
    this.begin.run();
    this.changesAtBegin = this.totalChanges.get() as number;
    this.open = true;
    setImmediate(() => this.commit());
  }

  private commit(): void {
    if (!this.open) return;
    const flushes = this.flushesAfterCommit;
    const hooks = this.beforeCommitHooks;
    const changed = this.openBatchChanges();
    this.flushesAfterCommit = [];
    this.beforeCommitHooks = [];
    this.open = false;
    try {
      // A sync failed while this batch was open: it must not become durable behind the failure.
      if (this.failure !== undefined) throw this.failure;
      for (const hook of hooks) hook();
      this.commitStatement.run();
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      this.fail(error, flushes);
      return;
    }
    // Nothing written: no WAL frame to sync (a flush waiting here is covered by the syncs already due).
    if (changed) this.unsynced = true;
    this.flushesAfterSync.push(...flushes);
    this.sync();
  }

  /** The open batch has changed a row, or will write in a hook just before its COMMIT. */
  private openBatchChanges(): boolean {
    return this.beforeCommitHooks.length > 0 || this.totalChanges.get() !== this.changesAtBegin;
  }

  /** Makes the failure sticky and rejects every waiting flush. */
  private fail(error: unknown, waiting: readonly Waiter[]): void {
    this.failure = error;
    const pending = [...waiting, ...this.flushesAfterSync];
    this.flushesAfterSync = [];
    for (const waiter of pending) waiter.reject(error);
  }

  private sync(): void {
    if (this.syncing) return;
    if (!this.unsynced) {
      const done = this.flushesAfterSync;
      this.flushesAfterSync = [];
      for (const waiter of done) waiter.resolve();
      const idle = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of idle) resolve();
      return;
    }
    this.syncing = true;
    this.unsynced = false;
    const covered = this.flushesAfterSync;
    this.flushesAfterSync = [];
    this.syncWal((error) => {
      this.syncing = false;
      if (error) {
        // After a failed fsync the kernel may have dropped the dirty pages: nothing after it can be
        // trusted, so every later write fails too (the process should restart and recover from the WAL).
        this.fail(error, covered);
      } else {
        for (const waiter of covered) waiter.resolve();
      }
      this.sync();
    });
  }
}

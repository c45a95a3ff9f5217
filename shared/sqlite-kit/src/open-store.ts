import { accessSync, closeSync, constants, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openedFile, processLockUri } from './process-lock-uri';
import Database from 'better-sqlite3';
import { GroupCommit } from './group-commit';
import { ensureVersionsTable, migrate, schemaVersions, type Migration } from './migrations';
import { sqliteCode, StoreOpenError } from './store-errors';

export const DATABASE_FILE = 'switchyard.db';
const PID_FILE = 'switchyard.pid';

export interface OpenStoreOptions {
  /** The data directory; created (with parents) when missing. */
  readonly dir: string;
  /** Page cache of the connection in KiB (bounds memory; default 16 MiB). */
  readonly cacheKiB?: number;
}

/** One SQLite database file per data directory, shared by every service of the embedded runtime. */
export interface SqliteStore {
  readonly dir: string;
  readonly path: string;
  /** What another connection of this process opens (openReadConnection, e.g. in a worker thread). */
  readonly uri: string;
  readonly db: Database.Database;
  /** Creates or upgrades a component's tables (refuses a newer schema than `migrations` knows). */
  migrate(component: string, migrations: readonly Migration[]): void;
  /**
   * Runs `fn` now in the current group transaction and resolves with its result at once (every later read
   * sees it; committed at the end of the event-loop turn, on disk once a later `flush()` resolved).
   */
  write<T>(fn: () => T): Promise<T>;
  /**
   * `write` for a `fn` that changes rows with at most one statement (it may read as much as it likes): SQLite
   * undoes a failing statement by itself, so no savepoint is needed around it. A `fn` that runs two
   * changing statements must use `write`, or a failure of the second would leave the first in the batch.
   */
  writeOne<T>(fn: () => T): Promise<T>;
  /**
   * Runs `hook` once inside the open transaction (opened now if none is) just before its COMMIT: batch
   * work done once per commit instead of once per write. A hook that throws fails the commit and the store.
   */
  beforeCommit(hook: () => void): void;
  /** Resolves once everything written so far is on disk. */
  flush(): Promise<void>;
  /** The stored schema version of each component. */
  versions(): Record<string, number>;
  /** Online copy of the whole database into `file` (SQLite backup API), consistent at one commit. */
  backup(file: string): Promise<void>;
  health(): boolean;
  close(): Promise<void>;
}

function ensureDirectory(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST') throw new StoreOpenError('unwritable', `cannot create data directory ${dir}: ${code ?? String(error)}`);
  }
  try {
    if (!statSync(dir).isDirectory()) throw new Error('ENOTDIR');
    accessSync(dir, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new StoreOpenError('unwritable', `data directory ${dir} is not a writable directory (${code})`);
  }
}

function holderPid(dir: string): string {
  try {
    const pid = readFileSync(join(dir, PID_FILE), 'utf8').trim();
    return /^\d+$/.test(pid) ? ` (pid ${pid})` : '';
  } catch {
    return '';
  }
}

function openFailure(error: unknown, dir: string, path: string): StoreOpenError {
  if (error instanceof StoreOpenError) return error;
  const code = sqliteCode(error);
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
    return new StoreOpenError('in_use', `data directory ${dir} is in use by another Switchyard process${holderPid(dir)}; stop it or choose another --data-dir`);
  }
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
    return new StoreOpenError('corrupt', `${path} is not a valid Switchyard database (${code}); restore a backup with switchyardctl restore or move the file away`);
  }
  if (code === 'SQLITE_READONLY' || code === 'SQLITE_CANTOPEN' || code === 'SQLITE_IOERR' || code === 'SQLITE_PERM') {
    return new StoreOpenError('unwritable', `cannot write ${path} (${code})`);
  }
  return new StoreOpenError('corrupt', `cannot open ${path}: ${error instanceof Error ? error.message : String(error)}`);
}

function fsyncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Databases of stores open in this process (the process lock cannot tell this process's own connections apart). */
const openHere = new Set<string>();

/** Whether this process has a store open on that database file. */
export function storeOpenHere(path: string): boolean {
  return openHere.has(resolve(path));
}

/**
 * Opens (or creates) the data directory's database: one lock for the whole process (processLockUri: a second
 * process on the same directory fails at once, and the kernel drops the lock when this one dies, even by
 * SIGKILL; a second store of this process on it fails too), WAL,
 * synchronous=NORMAL plus group commit that acknowledges only after fdatasync of the WAL, foreign
 * keys, a quick integrity check, and the schema version table.
 */
export function openStore(options: OpenStoreOptions): SqliteStore {
  const dir = resolve(options.dir);
  ensureDirectory(dir);
  const path = join(dir, DATABASE_FILE);
  const existed = existsSync(path);
  if (openHere.has(path)) throw new StoreOpenError('in_use', `data directory ${dir} is in use by another Switchyard process${holderPid(dir)}; stop it or choose another --data-dir`);
  if (process.env.SQLITE_USE_URI !== '1') throw new StoreOpenError('unwritable', `SQLITE_USE_URI is ${process.env.SQLITE_USE_URI ?? 'unset'}: the store opens its database as a SQLite URI (ADR 0041); unset it`);
  const uri = processLockUri(path);
  let db: Database.Database | undefined;
  try {
    db = new Database(uri, { timeout: 0 });
    if (openedFile(db).includes('?vfs=')) throw new StoreOpenError('unwritable', `${path} was not opened as the URI ${uri} (SQLITE_USE_URI=${process.env.SQLITE_USE_URI ?? ''})`);
    // Takes the process lock now (unix-excl keeps it while this process has the file open) so a second process fails here.
    db.exec('BEGIN EXCLUSIVE; COMMIT');
    const mode = db.pragma('journal_mode = WAL', { simple: true });
    if (mode !== 'wal') throw new StoreOpenError('unwritable', `cannot switch ${path} to WAL mode (got ${String(mode)})`);
    db.pragma('synchronous = NORMAL');
    db.pragma(`cache_size = -${options.cacheKiB ?? 16 * 1024}`);
    db.pragma('temp_store = MEMORY');
    db.pragma('foreign_keys = ON');
    db.pragma('wal_autocheckpoint = 4000');
    if (existed) {
      const check = db.pragma('quick_check', { simple: true });
      if (check !== 'ok') throw new StoreOpenError('corrupt', `${path} failed its integrity check (${String(check)}); restore a backup with switchyardctl restore`);
      const tables = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number };
      const hasVersions = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_versions'").get();
      if (tables.n > 0 && !hasVersions) throw new StoreOpenError('not_a_store', `${path} is an SQLite database but not a Switchyard store (no schema_versions table)`);
    }
    ensureVersionsTable(db);
  } catch (error) {
    db?.close();
    throw openFailure(error, dir, path);
  }
  const walPath = `${path}-wal`;
  const walFd = openSync(walPath, 'a');
  fsyncDirectory(dir);
  writeFileSync(join(dir, PID_FILE), `${process.pid}\n`);
  const opened = db;
  const commits = new GroupCommit(opened, walFd);
  let closed = false;
  openHere.add(path);

  return {
    dir,
    path,
    uri,
    db: opened,
    migrate: (component, migrations) => {
      commits.commitNow();
      try {
        migrate(opened, component, migrations);
      } catch (error) {
        throw openFailure(error, dir, path);
      }
    },
    write: (fn) => (closed ? Promise.reject(new Error(`the store at ${path} is closed`)) : commits.write(fn)),
    writeOne: (fn) => (closed ? Promise.reject(new Error(`the store at ${path} is closed`)) : commits.writeOne(fn)),
    beforeCommit: (hook) => {
      if (closed) throw new Error(`the store at ${path} is closed`);
      commits.beforeCommit(hook);
    },
    flush: () => commits.flush(),
    versions: () => schemaVersions(opened),
    backup: async (file) => {
      commits.commitNow();
      await opened.backup(file);
      const fd = openSync(file, 'r');
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    },
    health: () => !closed && opened.open && commits.healthy,
    close: async () => {
      if (closed) return;
      closed = true;
      await commits.idle();
      opened.close();
      closeSync(walFd);
      openHere.delete(path);
    },
  };
}

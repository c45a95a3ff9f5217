import Database from 'better-sqlite3';

/*
 * better-sqlite3 opens files without SQLITE_OPEN_URI and configures SQLite's URI filenames from the
 * SQLITE_USE_URI environment variable when its native addon loads (at the first `new Database` of the
 * process). The store names its VFS in a URI, so URIs are switched on here, before any connection: every
 * module that opens a store imports this one first. Plain paths mean what they meant before.
 */
process.env.SQLITE_USE_URI ??= '1';

/**
 * The URI every connection to a store's database opens: SQLite's `unix-excl` VFS takes one POSIX write lock
 * on the file for the whole process at the first access and keeps it until the process's last connection
 * to it closes (the kernel drops it when the process dies, even by SIGKILL): another process fails at once
 * with SQLITE_BUSY, while further connections of this process (a search worker thread's) share the file
 * and its WAL index, which lives in heap memory (no `-shm` file). docs/adr/0041-search-reader-thread.md.
 */
export function processLockUri(path: string): string {
  return `file:${path.replace(/[%?#]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`)}?vfs=unix-excl`;
}

/** The file a connection really opened (SQLite's own name for it), to prove a URI was read as one. */
export function openedFile(db: Database.Database): string {
  const main = (db.pragma('database_list') as { name: string; file: string }[]).find((d) => d.name === 'main');
  return main?.file ?? '';
}

/**
 * A second connection to an open store's database for reads only (a worker thread's): the same process lock,
 * `query_only` so no statement can write, WAL snapshots (it sees what the store has committed). Opened
 * read-write on purpose: a read-only unix-excl connection would take and release POSIX locks of its own,
 * and a release drops the whole process's lock on that range.
 */
export function openReadConnection(uri: string, cacheKiB = 16 * 1024): Database.Database {
  const db = new Database(uri, { fileMustExist: true, timeout: 1_000 });
  try {
    db.pragma('query_only = ON');
    db.pragma(`cache_size = -${cacheKiB}`);
    db.pragma('temp_store = MEMORY');
    if (db.pragma('journal_mode', { simple: true }) !== 'wal') throw new Error(`${uri} is not in WAL mode`);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

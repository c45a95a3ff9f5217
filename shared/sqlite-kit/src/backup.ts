import { closeSync, copyFileSync, existsSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { DATABASE_FILE, storeOpenHere, type SqliteStore } from './open-store';
import { sqliteCode, StoreOpenError } from './store-errors';

function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Online backup of a running store into `file` (the SQLite backup API, one consistent snapshot). */
export async function backupFile(store: SqliteStore, file: string): Promise<void> {
  await store.backup(file);
}

/** Checks that `file` is an intact Switchyard store; returns its schema versions. */
function checkBackup(file: string): Record<string, number> {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new StoreOpenError('corrupt', `${file} failed its integrity check (${String(check)})`);
    const hasVersions = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_versions'").get();
    if (!hasVersions) throw new StoreOpenError('not_a_store', `${file} is not a Switchyard backup (no schema_versions table)`);
    const rows = db.prepare('SELECT component, version FROM schema_versions').all() as { component: string; version: number }[];
    return Object.fromEntries(rows.map((r) => [r.component, r.version]));
  } catch (error) {
    if (error instanceof StoreOpenError) throw error;
    const code = sqliteCode(error) ?? (error as NodeJS.ErrnoException).code;
    throw new StoreOpenError('corrupt', `${file} is not a readable Switchyard backup (${code ?? String(error)})`);
  } finally {
    db?.close();
  }
}

/**
 * Replaces the data directory's database with a backup, offline: fails while a server holds the
 * directory. The current database (and its WAL) is closed cleanly first; the backup is copied beside it,
 * fsynced and renamed into place, so a crash leaves either the old or the new database, never a mix.
 */
export function restoreDataDir(backup: string, dir: string): Record<string, number> {
  const source = resolve(backup);
  const versions = checkBackup(source);
  mkdirSync(resolve(dir), { recursive: true });
  const target = join(resolve(dir), DATABASE_FILE);
  // This process's own store: its process lock would not stop a connection of the same process.
  if (storeOpenHere(target)) throw new StoreOpenError('in_use', `data directory ${resolve(dir)} is in use by a running Switchyard; stop it before restoring`);
  if (existsSync(target)) {
    let db: Database.Database | undefined;
    try {
      db = new Database(target, { timeout: 0 });
      db.pragma('locking_mode = EXCLUSIVE');
      db.exec('BEGIN EXCLUSIVE; COMMIT');
    } catch (error) {
      const code = sqliteCode(error);
      if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
        db?.close();
        throw new StoreOpenError('in_use', `data directory ${resolve(dir)} is in use by a running Switchyard; stop it before restoring`);
      }
      // A corrupt current database is what restores are for: it is replaced below.
    }
    try {
      db?.close();
    } catch {
      // closing a damaged database may fail; its files are replaced anyway
    }
  }
  const staging = `${target}.restoring`;
  copyFileSync(source, staging);
  fsyncPath(staging);
  rmSync(`${target}-wal`, { force: true });
  rmSync(`${target}-shm`, { force: true });
  renameSync(staging, target);
  fsyncPath(resolve(dir));
  return versions;
}

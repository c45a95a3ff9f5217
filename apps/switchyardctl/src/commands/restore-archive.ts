import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { isAbsolute, join, normalize } from 'node:path';
import * as tar from 'tar';

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

async function isSqliteFile(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(16);
    const { bytesRead } = await handle.read(head, 0, 16, 0);
    return bytesRead === 16 && head.equals(SQLITE_MAGIC);
  } finally {
    await handle.close();
  }
}

/** A manifest's files_dir, only when it stays inside the data directory. */
function insideDataDir(dataDir: string, filesDir: unknown): string | undefined {
  if (typeof filesDir !== 'string' || filesDir === '' || isAbsolute(filesDir)) return undefined;
  const normalised = normalize(filesDir);
  if (normalised.startsWith('..') || normalised === '.') return undefined;
  return join(dataDir, normalised);
}

/**
 * Restores a backup into a stopped server's data directory: a bare SQLite file (older backups) replaces
 * the store; a tar (switchyardctl backup) is extracted beside it, its store restored (checked, fsynced,
 * renamed in place) and then its files directory put where the manifest says, replacing the current one.
 */
export async function restoreArchive(file: string, dataDir: string): Promise<{ versions: Record<string, number>; filesDir: string | null }> {
  const { restoreDataDir } = await import('@switchyard/sqlite-kit');
  // A missing file or a bare SQLite file: the store's own restore (and its errors).
  if (!existsSync(file) || (await isSqliteFile(file))) return { versions: restoreDataDir(file, dataDir), filesDir: null };
  await mkdir(dataDir, { recursive: true });
  const staging = join(dataDir, `.restore-${randomBytes(6).toString('hex')}`);
  await mkdir(staging);
  try {
    // node-tar refuses absolute paths and `..` in entries by default.
    await tar.extract({ file, cwd: staging, strict: true });
    if (!existsSync(join(staging, 'switchyard.db'))) throw new Error(`${file} is neither an SQLite store nor a switchyardctl backup archive`);
    const manifest = JSON.parse(await readFile(join(staging, 'manifest.json'), 'utf8').catch(() => '{}')) as { files_dir?: unknown };
    const versions = restoreDataDir(join(staging, 'switchyard.db'), dataDir);
    const target = insideDataDir(dataDir, manifest.files_dir);
    if (!target || !existsSync(join(staging, 'files'))) return { versions, filesDir: null };
    const previous = `${target}.replaced-${randomBytes(4).toString('hex')}`;
    if (existsSync(target)) await rename(target, previous);
    await mkdir(join(target, '..'), { recursive: true });
    await rename(join(staging, 'files'), target);
    await rm(previous, { recursive: true, force: true });
    return { versions, filesDir: target };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

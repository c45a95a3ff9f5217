import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import type { Readable } from 'node:stream';
import * as tar from 'tar';

/** The archive's fixed entries: the store, a manifest, and the files directory (local driver) under `files/`. */
export const ARCHIVE = { database: 'switchyard.db', manifest: 'manifest.json', files: 'files' } as const;

export interface BackupManifest {
  readonly format: 1;
  /** Where the files came from, relative to the data directory (restore puts them back there); null: not included. */
  readonly files_dir: string | null;
  /** Why files are not included (S3 driver, a directory outside the data directory). */
  readonly files_note?: string;
}

/** The files directory of FileSettings when its bytes live under the data directory, else why not. */
export function filesDirOf(settings: { readonly DriverName: string; readonly Directory: string }, dataDir: string): { dir: string } | { note: string } {
  if (settings.DriverName !== 'local') return { note: `FileSettings.DriverName is ${settings.DriverName}: back up the bucket with the object store's own tools` };
  const dir = isAbsolute(settings.Directory) ? settings.Directory : join(dataDir, settings.Directory);
  const rel = relative(dataDir, dir);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return { note: `FileSettings.Directory ${settings.Directory} is outside the data directory: back it up separately` };
  return { dir };
}

/**
 * A tar stream (node-tar) of `staging` holding `switchyard.db` (already written there), the manifest and,
 * when given, the files directory (linked in and followed; staged uploads under `.tmp` left out).
 * The caller removes `staging` once the stream is consumed.
 */
export async function backupArchive(staging: string, dataDir: string, files: { dir: string } | { note: string }): Promise<Readable> {
  const included = 'dir' in files && existsSync(files.dir);
  const manifest: BackupManifest = included ? { format: 1, files_dir: relative(dataDir, files.dir) } : { format: 1, files_dir: null, ...('note' in files ? { files_note: files.note } : {}) };
  await writeFile(join(staging, ARCHIVE.manifest), JSON.stringify(manifest));
  const entries: string[] = [ARCHIVE.manifest, ARCHIVE.database];
  if (included) {
    await symlink(files.dir, join(staging, ARCHIVE.files), 'dir');
    entries.push(ARCHIVE.files);
  }
  return tar.create({ cwd: staging, portable: true, follow: true, filter: (path) => !/^files\/\.tmp(\/|$)/.test(path) }, entries) as unknown as Readable;
}

/** A fresh staging directory for one backup, inside the data directory. */
export async function newStaging(dataDir: string, id: string): Promise<string> {
  const dir = join(dataDir, `.backup-${id}`);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir);
  return dir;
}

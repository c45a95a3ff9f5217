import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileTooLargeError, type StagedFile } from '../../domain/files/file-ports';

/** Counts bytes through, failing past `max`. */
function capped(max: number, counted: (n: number) => void): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      counted(seen);
      if (seen > max) done(new FileTooLargeError(max));
      else done(null, chunk);
    },
  });
}

export async function fsyncPath(path: string, flags = 'r'): Promise<void> {
  const handle = await open(path, flags);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Streams `data` into a new file `<dir>/<random>.part`, at most `max` bytes (FileTooLargeError), fsynced
 * when `durable`. Memory use is the stream's buffers, whatever the size. On any failure the file is gone.
 */
export async function stageInto(dir: string, data: Readable | Buffer, max: number, durable: boolean): Promise<StagedFile> {
  if (Buffer.isBuffer(data) && data.length > max) throw new FileTooLargeError(max);
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${randomBytes(12).toString('hex')}.part`);
  let size = 0;
  try {
    await pipeline(Buffer.isBuffer(data) ? Readable.from([data]) : data, capped(max, (n) => (size = n)), createWriteStream(path, { flags: 'wx' }));
    if (durable) await fsyncPath(path);
  } catch (error) {
    await unlink(path).catch(() => undefined);
    throw error;
  }
  return { path, size };
}

/** Removes a staged file (no error when already gone). */
export async function discardStaged(staged: StagedFile): Promise<void> {
  await rm(staged.path, { force: true });
}

/** Removes files in `dir` older than `staleMs` (stagings a crash cut short; younger ones may be in use). */
export async function sweepStale(dir: string, staleMs: number): Promise<void> {
  const now = Date.now();
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (info && now - info.mtimeMs >= staleMs) await rm(path, { force: true });
  }
}

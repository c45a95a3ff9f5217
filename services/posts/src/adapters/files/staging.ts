import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rm, stat, unlink, type FileHandle } from 'node:fs/promises';
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
 * Chunks waiting while a write is in flight (a socket's 64 KiB reads arrive faster than one write each):
 * they go to the file together in one writev, so a 1 MiB upload is a few writes instead of sixteen.
 */
const WRITE_BATCH_BYTES = 1024 * 1024;

/** A new file in `dir` (created, once per process, when missing). */
async function createIn(dir: string, name: string): Promise<FileHandle> {
  const path = join(dir, name);
  try {
    return await open(path, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(dir, { recursive: true });
    return open(path, 'wx');
  }
}

/**
 * Streams `data` into a new file `<dir>/<random>.part`, at most `max` bytes (FileTooLargeError), fsynced
 * (before its close) when `durable`. Memory use is the stream's buffers, whatever the size. On any failure
 * the file is gone.
 */
export async function stageInto(dir: string, data: Readable | Buffer, max: number, durable: boolean): Promise<StagedFile> {
  if (Buffer.isBuffer(data) && data.length > max) throw new FileTooLargeError(max);
  const name = `${randomBytes(12).toString('hex')}.part`;
  const path = join(dir, name);
  const handle = await createIn(dir, name);
  let size = 0;
  try {
    // The stream owns the handle: `flush` fsyncs it before the close (no second open just to fsync).
    await pipeline(Buffer.isBuffer(data) ? Readable.from([data]) : data, capped(max, (n) => (size = n)), createWriteStream(path, { fd: handle, highWaterMark: WRITE_BATCH_BYTES, flush: durable }));
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

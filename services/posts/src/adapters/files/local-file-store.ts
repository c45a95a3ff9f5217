import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { access, mkdir, open, readdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileTooLargeError, type FileStore } from '../../domain/files/file-ports';
import { checkedKey } from './file-key';

/** Temporary files live here, inside the root (same filesystem, so the final rename is atomic). */
const TMP_DIR = '.tmp';

/** Counts bytes through, failing past `max`. */
function capped(max: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > max) done(new FileTooLargeError(max));
      else done(null, chunk);
    },
  });
}

async function fsyncPath(path: string, flags: string): Promise<void> {
  const handle = await open(path, flags);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Files in a directory (the `local` driver). A write streams into a temporary file under `<root>/.tmp`,
 * fsyncs it, renames it to its key and fsyncs the directory: a crash leaves the key absent or whole,
 * never half written (the temporary file is not a key any read can name).
 */
export class LocalFileStore implements FileStore {
  public constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    return join(this.root, checkedKey(key));
  }

  public async write(key: string, data: Readable | Buffer, maxBytes = Number.POSITIVE_INFINITY): Promise<number> {
    const target = this.pathOf(key);
    if (Buffer.isBuffer(data) && data.length > maxBytes) throw new FileTooLargeError(maxBytes);
    const tmpDir = join(this.root, TMP_DIR);
    await mkdir(tmpDir, { recursive: true });
    const tmp = join(tmpDir, `${randomBytes(12).toString('hex')}.part`);
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    try {
      const source = Buffer.isBuffer(data) ? Readable.from([data]) : data;
      await pipeline(source, capped(maxBytes), counter, createWriteStream(tmp, { flags: 'wx' }));
      await fsyncPath(tmp, 'r');
      await mkdir(dirname(target), { recursive: true });
      await rename(tmp, target);
      await fsyncPath(dirname(target), 'r');
    } catch (error) {
      await unlink(tmp).catch(() => undefined);
      throw error;
    }
    return size;
  }

  public async read(key: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  public async exists(key: string): Promise<boolean> {
    try {
      await access(this.pathOf(key));
      return true;
    } catch {
      return false;
    }
  }

  public async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  /**
   * Checks the root is writable and removes temporary files older than `staleMs` (writes a crash cut short;
   * younger ones may belong to another process writing now).
   */
  public async check(staleMs = 60 * 60 * 1000): Promise<void> {
    const tmpDir = join(this.root, TMP_DIR);
    try {
      await mkdir(tmpDir, { recursive: true });
      await access(this.root, 2 /* W_OK */);
    } catch (error) {
      throw new Error(`file store: the directory ${this.root} is not writable (FileSettings.Directory): ${(error as Error).message}`);
    }
    const now = Date.now();
    for (const name of await readdir(tmpDir)) {
      const path = join(tmpDir, name);
      const info = await stat(path).catch(() => undefined);
      if (info && now - info.mtimeMs >= staleMs) await rm(path, { force: true });
    }
  }
}

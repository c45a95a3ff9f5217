import { access, mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import type { ByteRange, FileStore, OpenedObject, StagedFile } from '../../domain/files/file-ports';
import { checkedKey } from './file-key';
import { discardStaged, fsyncPath, stageInto, sweepStale } from './staging';

/** How many key-folder parents are remembered (one per user, channel and day with uploads). */
const KNOWN_PARENTS = 10_000;

/** Staged files live here, inside the root (same filesystem, so the final rename is atomic). */
const TMP_DIR = '.tmp';

/**
 * Files in a directory (the `local` driver). An upload streams into a staged file under `<root>/.tmp`,
 * fsynced; commit renames it to its key and fsyncs the directory: a crash leaves the key absent or whole,
 * never half written (a staged file is not a key any read can name).
 */
export class LocalFileStore implements FileStore {
  /** Key folders' parents known to exist (bounded; forgotten when one turns out gone). */
  private readonly parents = new Set<string>();

  public constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    return join(this.root, checkedKey(key));
  }

  public stage(data: Readable | Buffer, maxBytes = Number.POSITIVE_INFINITY): Promise<StagedFile> {
    return stageInto(join(this.root, TMP_DIR), data, maxBytes, true);
  }

  public async commit(staged: StagedFile, key: string): Promise<void> {
    try {
      const target = this.pathOf(key);
      await this.folderFor(dirname(target));
      await rename(staged.path, target);
      await fsyncPath(dirname(target));
    } catch (error) {
      await discardStaged(staged).catch(() => undefined);
      throw error;
    }
  }

  /**
   * Creates a key's folder. Keys of one user in one channel on one day share all but their last folder (the
   * file id): once such a parent is known to exist, the folder is one mkdir, not a walk down the whole path.
   */
  private async folderFor(folder: string): Promise<void> {
    const parent = dirname(folder);
    if (this.parents.has(parent)) {
      try {
        await mkdir(folder);
        return;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') return;
        if (code !== 'ENOENT') throw error;
        this.parents.delete(parent);
      }
    }
    await mkdir(folder, { recursive: true });
    if (this.parents.size >= KNOWN_PARENTS) this.parents.clear();
    this.parents.add(parent);
  }

  public discard(staged: StagedFile): Promise<void> {
    return discardStaged(staged);
  }

  public async write(key: string, data: Readable | Buffer, maxBytes = Number.POSITIVE_INFINITY): Promise<number> {
    this.pathOf(key);
    const staged = await this.stage(data, maxBytes);
    await this.commit(staged, key);
    return staged.size;
  }

  public async read(key: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  public async open(key: string, range?: ByteRange): Promise<OpenedObject | undefined> {
    let handle;
    try {
      handle = await open(this.pathOf(key), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    try {
      const { size } = await handle.stat();
      // The stream owns the handle from here: it closes it at its end, or when destroyed.
      const stream = handle.createReadStream(range ? { start: range.start, end: range.end } : {});
      return { stream, size };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  public async size(key: string): Promise<number | undefined> {
    try {
      return (await stat(this.pathOf(key))).size;
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
   * Checks the root is writable and removes staged files older than `staleMs` (uploads a crash cut short;
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
    await sweepStale(tmpDir, staleMs);
  }
}

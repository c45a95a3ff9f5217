import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A cross-process lock per shared server: test files change global config (rate limits, payload size,
 * feature flags), so against one shared server they run one file at a time even when the runner starts
 * several files in parallel. The lock is a directory (mkdir is atomic) holding the owner's pid; a lock
 * whose owner is gone is taken over.
 */
export async function acquireSharedLock(url: string, waitMs = 15 * 60_000): Promise<() => Promise<void>> {
  const dir = join(tmpdir(), `switchyard-api-tests-${createHash('sha256').update(url).digest('hex').slice(0, 16)}.lock`);
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      await mkdir(dir);
      await writeFile(join(dir, 'pid'), String(process.pid));
      return async () => {
        await rm(dir, { recursive: true, force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (await ownerIsGone(dir)) {
      await rm(dir, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`waited ${waitMs} ms for ${dir}; remove it if no test run is active`);
    await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 100));
  }
}

async function ownerIsGone(dir: string): Promise<boolean> {
  let pid: number;
  try {
    pid = Number(await readFile(join(dir, 'pid'), 'utf8'));
  } catch {
    // Being created right now, or its creator died between mkdir and writeFile.
    const created = await stat(dir).then((s) => s.mtimeMs, () => Date.now());
    return Date.now() - created > 10_000;
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

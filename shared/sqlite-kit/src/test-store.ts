import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type SqliteStore } from './open-store';

export interface TestStore extends SqliteStore {
  /** Closes the store and removes its directory. */
  dispose(): Promise<void>;
}

const leftovers = new Set<string>();
let cleanupRegistered = false;

/** A store in a fresh temporary directory (tests): removed by `dispose()` or when the process exits. */
export function openTestStore(prefix = 'switchyard-test-'): TestStore {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  leftovers.add(dir);
  if (!cleanupRegistered) {
    cleanupRegistered = true;
    process.once('exit', () => {
      for (const left of leftovers) rmSync(left, { recursive: true, force: true });
    });
  }
  const store = openStore({ dir, cacheKiB: 1024 });
  return {
    ...store,
    dispose: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
      leftovers.delete(dir);
    },
  };
}

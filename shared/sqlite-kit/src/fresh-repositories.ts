import type { SqliteStore } from './open-store';
import { openTestStore, type TestStore } from './test-store';

export interface FreshRepositories<R> {
  /** A factory of the `key` repository for a contract suite: each call opens a new store in its own directory. */
  fresh<K extends keyof R>(key: K): () => Promise<R[K]>;
  /** Closes every store opened so far and removes its directory (call it from the test file's `after`). */
  disposeAll(): Promise<void>;
}

/**
 * The setup every service's SQLite contract-test file needs: repositories over a fresh store per test (no
 * server), all disposed at the end. `create` is the service's `createSqliteRepositories`.
 */
export function freshRepositories<R>(prefix: string, create: (store: SqliteStore) => R): FreshRepositories<R> {
  const stores: TestStore[] = [];
  return {
    fresh: (key) => async () => {
      const store = openTestStore(prefix);
      stores.push(store);
      return create(store)[key];
    },
    disposeAll: async () => {
      for (const store of stores.splice(0)) await store.dispose();
    },
  };
}

import { after, describe } from 'node:test';
import { openTestStore, type TestStore } from '@switchyard/sqlite-kit';
import type { Repositories } from '../../domain/ports';
import { idempotencyRepositoryContract, incomingHookRepositoryContract } from '../contracts/repository-contracts';
import { createSqliteRepositories } from './index';

// Each contract test gets its own store in a fresh temporary directory (no server needed).
const stores: TestStore[] = [];
after(async () => {
  for (const store of stores) await store.dispose();
});

const fresh =
  <K extends keyof Repositories>(key: K) =>
  async (): Promise<Repositories[K]> => {
    const store = openTestStore('incoming-hooks-sqlite-');
    stores.push(store);
    return createSqliteRepositories(store)[key];
  };

describe('SqliteIncomingHookRepository', () => incomingHookRepositoryContract(fresh('hooks')));
describe('SqliteIdempotencyRepository', () => idempotencyRepositoryContract(fresh('idempotency')));

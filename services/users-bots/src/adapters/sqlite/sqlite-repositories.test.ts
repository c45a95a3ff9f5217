import { after } from 'node:test';
import { openTestStore, type TestStore } from '@switchyard/sqlite-kit';
import type { Repositories } from '../../domain/ports';
import {
  accessTokenRepositoryContract,
  botRepositoryContract,
  configRepositoryContract,
  imageStoreContract,
  sessionRepositoryContract,
  teamMemberRepositoryContract,
  teamRepositoryContract,
  userRepositoryContract,
} from '../repository-contracts';
import { createSqliteRepositories } from './index';

// Each contract test gets its own store in a fresh temporary directory (no server needed).
const stores: TestStore[] = [];
after(async () => {
  for (const store of stores) await store.dispose();
});

const fresh =
  <K extends keyof Repositories>(key: K) =>
  (): Repositories[K] => {
    const store = openTestStore('users-bots-sqlite-');
    stores.push(store);
    return createSqliteRepositories(store)[key];
  };

userRepositoryContract('sqlite', fresh('users'));
sessionRepositoryContract('sqlite', fresh('sessions'));
accessTokenRepositoryContract('sqlite', fresh('tokens'));
botRepositoryContract('sqlite', fresh('bots'));
teamRepositoryContract('sqlite', fresh('teams'));
teamMemberRepositoryContract('sqlite', fresh('members'));
configRepositoryContract('sqlite', fresh('configStore'));
imageStoreContract('sqlite', fresh('images'));

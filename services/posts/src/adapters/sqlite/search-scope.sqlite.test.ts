import { after } from 'node:test';
import { openTestStore, type TestStore } from '@switchyard/sqlite-kit';
import { searchScopeContract } from '../contracts/search-scope.contract';
import { repositorySearchScope } from '../../domain/search/search-scope.port';
import { createSqliteRepositories } from './index';
import { SqliteSearchScope } from './search-scope.sqlite';

const stores: TestStore[] = [];
after(async () => {
  for (const store of stores.splice(0)) await store.dispose();
});

function open(): ReturnType<typeof createSqliteRepositories> & { store: TestStore } {
  const store = openTestStore('posts-scope-sqlite-');
  stores.push(store);
  return { ...createSqliteRepositories(store), store };
}

searchScopeContract('sqlite (one joined query)', () => {
  const { channels, channelMembers, store } = open();
  return { channels, channelMembers, scope: new SqliteSearchScope(store) };
});

searchScopeContract('sqlite repositories (two reads)', () => {
  const { channels, channelMembers } = open();
  return { channels, channelMembers, scope: repositorySearchScope(channels, channelMembers) };
});

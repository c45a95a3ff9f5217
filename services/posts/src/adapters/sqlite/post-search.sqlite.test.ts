import { after } from 'node:test';
import { openTestStore, type TestStore } from '@switchyard/sqlite-kit';
import { postSearchContract } from '../contracts/post-search.contract';
import { createSqliteRepositories } from './index';

// Each test gets its own store (posts and their FTS5 index in one database).
const stores: TestStore[] = [];
after(async () => {
  for (const store of stores.splice(0)) await store.dispose();
});

postSearchContract('sqlite', () => {
  const store = openTestStore('posts-search-sqlite-');
  stores.push(store);
  const { posts, search } = createSqliteRepositories(store);
  return { posts, search };
});

import { after } from 'node:test';
import { openTestStore, type TestStore } from '@switchyard/sqlite-kit';
import type { PostsRepositories } from '../../domain/ports';
import { channelMemberRepositoryContract, channelRepositoryContract, postRepositoryContract, reactionRepositoryContract } from '../contracts';
import { createSqliteRepositories } from './index';

// Each contract test gets its own store in a fresh temporary directory (no server needed).
const stores: TestStore[] = [];
after(async () => {
  for (const store of stores) await store.dispose();
});

const fresh =
  <K extends keyof PostsRepositories>(key: K) =>
  (): PostsRepositories[K] => {
    const store = openTestStore('posts-sqlite-');
    stores.push(store);
    return createSqliteRepositories(store)[key];
  };

channelRepositoryContract('sqlite', fresh('channels'));
channelMemberRepositoryContract('sqlite', fresh('channelMembers'));
postRepositoryContract('sqlite', fresh('posts'));
reactionRepositoryContract('sqlite', fresh('reactions'));

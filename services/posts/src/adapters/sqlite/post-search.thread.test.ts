import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import { openTestStore, type TestStore } from '@switchyard/sqlite-kit';
import type { PostSearchQuery } from '../../domain/search/post-search.port';
import { aPost } from '../contracts/fixtures';
import { postSearchContract } from '../contracts/post-search.contract';
import { createSqliteRepositories } from './index';
import { ThreadPostSearch } from './post-search.thread';

// The same contract as the store's own connection: posts written through the store, searched on the thread.
const opened: { store: TestStore; search: ThreadPostSearch }[] = [];
after(async () => {
  for (const { store, search } of opened.splice(0)) {
    await search.close();
    await store.dispose();
  }
});

const NEEDLE: Omit<PostSearchQuery, 'channelIds'> = {
  words: [{ text: 'needle', prefix: false }],
  phrases: [],
  hashtags: [],
  excludedWords: [],
  excludedPhrases: [],
  excludedHashtags: [],
  orSearch: false,
  excludedUserIds: [],
  time: { excluded: [] },
  limit: 100,
  highlight: { words: [{ text: 'needle', prefix: false }], phrases: [], hashtags: [] },
};

postSearchContract('sqlite on a search thread', () => {
  const store = openTestStore('posts-search-thread-');
  const { posts } = createSqliteRepositories(store);
  const search = new ThreadPostSearch(store);
  opened.push({ store, search });
  return { posts, search };
});

describe('ThreadPostSearch channel lists', () => {
  it('when frozen channel lists are searched again, also after the thread dropped them, then each answer is of its own channels', async () => {
    const store = openTestStore('posts-search-thread-lists-');
    const { posts } = createSqliteRepositories(store);
    const search = new ThreadPostSearch(store);
    opened.push({ store, search });
    const channels = Array.from({ length: 300 }, () => newId());
    await posts.insertMany(channels.map((channel_id, i) => aPost({ channel_id, message: `needle ${i}`, create_at: 1_000 + i })));
    const query = (channelIds: readonly string[]): PostSearchQuery => ({ ...NEEDLE, channelIds });
    const lists = channels.map((id) => Object.freeze([id]));
    const messages = async (list: readonly string[]): Promise<string[]> => (await search.search(query(list))).map((found) => found.post.message);
    assert.deepEqual(await messages(lists[0] as readonly string[]), ['needle 0']);
    assert.deepEqual(await messages(lists[0] as readonly string[]), ['needle 0'], 'by its id the second time');
    // More lists than the thread keeps: the first one is dropped there and sent again.
    for (let i = 1; i < lists.length; i++) assert.deepEqual(await messages(lists[i] as readonly string[]), [`needle ${i}`]);
    assert.deepEqual(await messages(lists[0] as readonly string[]), ['needle 0']);
    assert.deepEqual(await messages(Object.freeze([channels[5] as string, channels[7] as string])), ['needle 7', 'needle 5']);
  });
});

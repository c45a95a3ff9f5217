import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import { openTestStore, type TestStore } from '@switchyard/sqlite-kit';
import { postSearchContract } from '../contracts/post-search.contract';
import { aPost } from '../contracts/fixtures';
import { createSqliteRepositories } from './index';
import { MATCHES_PER_POINT_CHECK, PLAN_LIMITS, SearchPlan, type PlanLimits } from './post-search-plan.sqlite';
import { SqlitePostSearch } from './post-search.sqlite';

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

// Every plan answers the same posts: the contract again with each alternative forced whatever the counts say.
const forced: [string, PlanLimits][] = [
  ['authors or channels never first, time bounds never a rowid range', { ...PLAN_LIMITS, authorFirstMaxPosts: 0, timeRangeMaxPosts: 0, channelFirstMaxPosts: 0 }],
  [
    'authors and channels always first, excluded words checked one by one, time bounds always a rowid range',
    { authorFirstMaxPosts: 1e9, matchesPerPointCheck: 0, excludedMatchesPerPointCheck: 0, timeRangeMaxPosts: 1e9, channelFirstMaxPosts: 1e9 },
  ],
];
for (const [name, limits] of forced) {
  postSearchContract(`sqlite (${name})`, () => {
    const store = openTestStore('posts-search-plans-');
    stores.push(store);
    const { posts } = createSqliteRepositories(store);
    return { posts, search: new SqlitePostSearch(store.db, limits) };
  });
}

describe('SQLite search plan', () => {
  it('when the from: authors wrote few posts and the words match many, then their posts are read first; otherwise FTS5 drives', async () => {
    const store = openTestStore('posts-search-plan-');
    stores.push(store);
    const { posts } = createSqliteRepositories(store);
    const ch = newId();
    const [alice, bob, carol] = [newId(), newId(), newId()];
    const many = Array.from({ length: MATCHES_PER_POINT_CHECK + 10 }, (_, i) => aPost({ channel_id: ch, user_id: bob, message: `common ${i}`, create_at: i + 1 }));
    await posts.insertMany([...many, aPost({ channel_id: ch, user_id: alice, message: 'common rare', create_at: 0 })]);
    const plan = new SearchPlan(store.db);
    assert.equal(plan.authorsFirst(JSON.stringify([alice]), '"common"'), true, 'one post vs 261 matches');
    assert.equal(plan.authorsFirst(JSON.stringify([carol]), '"common"'), true, 'no post at all');
    assert.equal(plan.authorsFirst(JSON.stringify([alice]), '"rare"'), false, 'one match');
    assert.equal(plan.authorsFirst(JSON.stringify([bob]), '"common"'), false, 'most matches are the author\'s');
  });

  it('when a search has no words or tags, then the few posts of its authors or of its channels are read first, otherwise every post newest first', async () => {
    const store = openTestStore('posts-search-filters-');
    stores.push(store);
    const { posts } = createSqliteRepositories(store);
    const [small, big] = [newId(), newId()];
    const [alice, bob] = [newId(), newId()];
    await posts.insertMany([
      aPost({ channel_id: small, user_id: alice, message: 'one', create_at: 1 }),
      ...Array.from({ length: 30 }, (_, i) => aPost({ channel_id: big, user_id: bob, message: `m ${i}`, create_at: i + 2 })),
    ]);
    const plan = new SearchPlan(store.db, { ...PLAN_LIMITS, authorFirstMaxPosts: 10, channelFirstMaxPosts: 10 });
    const list = (...ids: string[]): string => JSON.stringify(ids);
    assert.equal(plan.filterDriver(list(small, big), list(alice)), 'authors', 'one post by alice');
    assert.equal(plan.filterDriver(list(small), list(bob)), 'channels', 'bob wrote 30, the channel holds 1');
    assert.equal(plan.filterDriver(list(small), undefined), 'channels');
    assert.equal(plan.filterDriver(list(small, big), list(bob)), 'time', '30 posts by bob, 31 in the channels');
    assert.equal(plan.filterDriver(list(big), undefined), 'time');
  });

  it('when a time bound holds few posts, then the rowid range given to FTS5 spans all of them, whatever order they were stored in', async () => {
    const store = openTestStore('posts-search-range-');
    stores.push(store);
    const { posts } = createSqliteRepositories(store);
    const ch = newId();
    // Stored in this order: create_at 30, 10, 20, 40.
    await posts.insertMany([30, 10, 20, 40].map((t) => aPost({ channel_id: ch, message: `m ${t}`, create_at: t })));
    const rowid = (t: number): number => (store.db.prepare('SELECT rowid AS r FROM p_posts WHERE create_at = ?').get(t) as { r: number }).r;
    const plan = new SearchPlan(store.db);
    assert.deepEqual(plan.rowidsWithin(undefined, 20), { lo: rowid(10), hi: rowid(20) });
    assert.deepEqual(plan.rowidsWithin(15, 35), { lo: rowid(30), hi: rowid(20) });
    assert.deepEqual(plan.rowidsWithin(35, undefined), { lo: rowid(40), hi: rowid(40) });
    assert.deepEqual(plan.rowidsWithin(50, undefined), { lo: 1, hi: 0 });
    assert.equal(plan.rowidsWithin(undefined, undefined), undefined);
  });
});

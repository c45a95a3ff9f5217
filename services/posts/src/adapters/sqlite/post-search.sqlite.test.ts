import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import { openTestStore, type TestStore } from '@switchyard/sqlite-kit';
import { postSearchContract } from '../contracts/post-search.contract';
import { aPost } from '../contracts/fixtures';
import { createSqliteRepositories } from './index';
import { MATCHES_PER_POINT_CHECK, SearchPlan } from './post-search-plan.sqlite';

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

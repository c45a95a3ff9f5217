import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import { openTestStore } from '@switchyard/sqlite-kit';
import { aPost } from '../contracts/fixtures';
import { createSqliteRepositories } from './index';
import { ROOTS_ONLY } from './post.repository.sqlite';

describe('posts SQLite: a channel page of roots (migration 13)', () => {
  it('when roots are listed, then SQLite reads the roots index, not the channel index over the replies between them', async () => {
    const store = openTestStore('posts-roots-');
    const repos = createSqliteRepositories(store);
    const channelId = newId();
    const older = aPost({ channel_id: channelId, create_at: 1 });
    const newer = aPost({ channel_id: channelId, create_at: 2 });
    const replies = Array.from({ length: 500 }, (_, i) => aPost({ channel_id: channelId, root_id: older.id, create_at: 3 + i }));
    await repos.posts.insertMany([older, newer, ...replies]);
    await store.flush();
    // The list query's shape (channel, live, roots, before a time, newest first).
    const sql = `SELECT doc, events FROM p_posts WHERE channel_id = ? AND delete_at = 0 AND create_at < ? AND ${ROOTS_ONLY} ORDER BY create_at DESC, id DESC LIMIT ? OFFSET ?`;
    const plan = (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(channelId, 1_000, 2, 0) as { detail: string }[]).map((r) => r.detail).join('; ');
    assert.match(plan, /p_posts_channel_roots/);
    assert.doesNotMatch(plan, /TEMP B-TREE/, 'already in order: no sort of the roots');
    const page = await repos.posts.list({ channelId, includeDeleted: false, rootsOnly: true, createdBefore: 1_000, skip: 0, limit: 2 });
    assert.deepEqual(page.map((p) => p.id), [newer.id, older.id]);
    await store.dispose();
  });
});

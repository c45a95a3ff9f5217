import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openTestStore } from '@switchyard/sqlite-kit';
import { aChannel, aPost, anEvent } from '../contracts/fixtures';
import { createSqliteRepositories } from './index';
import { POSTS_COMPONENT, POSTS_MIGRATIONS } from './schema.sqlite';
import { SqlitePostRepository } from './post.repository.sqlite';

describe('posts SQLite schema', () => {
  it('when a version-1 store holding posts with pending events is migrated, then the events move to their column and the outbox still finds and clears them', async () => {
    const store = openTestStore('posts-schema-');
    store.migrate(POSTS_COMPONENT, POSTS_MIGRATIONS.slice(0, 1));
    // Version 1 kept the pending events inside the document.
    const pending = aPost({ create_at: 1, pending_events: [anEvent('p', 'created'), anEvent('p', 'updated')] });
    const done = aPost({ create_at: 2 });
    const insertV1 = store.db.prepare(
      'INSERT INTO p_posts (id, channel_id, user_id, pending_post_id, create_at, update_at, delete_at, outbox, doc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    for (const p of [pending, done]) {
      insertV1.run(p.id, p.channel_id, p.user_id, p.pending_post_id, p.create_at, p.update_at, p.delete_at, p.pending_events.length > 0 ? 1 : 0, JSON.stringify(p));
    }
    store.migrate(POSTS_COMPONENT, POSTS_MIGRATIONS);
    assert.equal(store.versions()[POSTS_COMPONENT], POSTS_MIGRATIONS.length);

    const docs = store.db.prepare('SELECT doc FROM p_posts').all() as { doc: string }[];
    assert.ok(docs.every((row) => !('pending_events' in (JSON.parse(row.doc) as object))), 'no document keeps its events');
    const repo = new SqlitePostRepository(store);
    assert.deepEqual(await repo.findById(pending.id), pending);
    assert.deepEqual(await repo.findById(done.id), done);
    assert.deepEqual((await repo.withPendingEvents(10)).map((p) => p.id), [pending.id]);

    await repo.clearEvent(pending.id, 'p:created');
    assert.deepEqual((await repo.findById(pending.id))?.pending_events.map((e) => e.id), ['p:updated']);
    await repo.clearEvent(pending.id, 'p:updated');
    assert.deepEqual(await repo.withPendingEvents(10), []);
    assert.deepEqual(await repo.findById(pending.id), { ...pending, pending_events: [] });
    await store.dispose();
  });
});

describe('posts search rows of new posts (migration 12)', () => {
  it('when posts are stored and counted in one group write, then FTS5 writes their words as one segment, and each is found', async () => {
    const store = openTestStore('posts-fts-segments-');
    const repos = createSqliteRepositories(store);
    const channel = aChannel();
    await repos.channels.insert(channel);
    await store.flush();
    const segments = (): number => (store.db.prepare('SELECT count(DISTINCT segid) AS n FROM p_posts_fts_idx').get() as { n: number }).n;
    assert.equal(segments(), 0);
    const posts = Array.from({ length: 20 }, (_, i) => aPost({ channel_id: channel.id, message: `segment word${i} #tag${i}`, hashtags: `#tag${i}`, create_at: 5_000 + i }));
    // As the hook path does: each post's insert, then its channel's counters (a statement that used to fire a trigger).
    await Promise.all(posts.map(async (p) => {
      await repos.posts.insertMany([p]);
      await repos.channels.recordPost(channel.id, p.create_at, true);
    }));
    await store.flush();
    // One segment for the write, not one per post (5 after FTS5's merges of 20 when the insert fired triggers).
    assert.equal(segments(), 1);
    const words = store.db.prepare<[string], { rowid: number }>('SELECT rowid FROM p_posts_fts WHERE p_posts_fts MATCH ?');
    const tags = store.db.prepare<[string], { rowid: number }>('SELECT rowid FROM p_posts_tags_fts WHERE p_posts_tags_fts MATCH ?');
    const meta = store.db.prepare<[string], { channel_id: string; user_id: string; create_at: number }>('SELECT m.channel_id, m.user_id, m.create_at FROM p_posts p JOIN p_posts_search_meta m ON m.rowid = p.rowid WHERE p.id = ?');
    for (const [i, p] of posts.entries()) {
      assert.equal(words.all(`word${i}`).length, 1);
      assert.equal(tags.all(`"#tag${i}"`).length, 1);
      assert.deepEqual({ ...meta.get(p.id) }, { channel_id: p.channel_id, user_id: p.user_id, create_at: p.create_at });
    }
    await store.dispose();
  });

  it('when a system message or a deleted post is stored, then it has match metadata but no words in the index', async () => {
    const store = openTestStore('posts-fts-system-');
    const repos = createSqliteRepositories(store);
    await repos.posts.insert(aPost({ message: 'hiddenword one', type: 'SYSTEM_join_channel' }));
    await repos.posts.insert(aPost({ message: 'hiddenword two', delete_at: 7 }));
    await repos.posts.insert(aPost({ message: 'shownword three', type: 'custom_system_like' }));
    const count = (sql: string): number => (store.db.prepare(sql).get() as { n: number }).n;
    assert.equal(count("SELECT count(*) AS n FROM p_posts_fts WHERE p_posts_fts MATCH 'hiddenword'"), 0);
    assert.equal(count("SELECT count(*) AS n FROM p_posts_fts WHERE p_posts_fts MATCH 'shownword'"), 1);
    assert.equal(count('SELECT count(*) AS n FROM p_posts_search_meta'), 3);
    await store.dispose();
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openTestStore } from '@switchyard/sqlite-kit';
import { aPost, anEvent } from '../contracts/fixtures';
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

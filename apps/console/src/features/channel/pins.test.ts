import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Post } from '../../api/types';
import { fakeApi, route } from '../../test-support/fake-api';
import { pinnedInOrder, setPinned } from './use-pins';

const post = (id: string, over: Partial<Post> = {}): Post => ({ id, create_at: 1, update_at: 1, edit_at: 0, delete_at: 0, user_id: 'u', channel_id: 'c', root_id: '', message: id, type: '', props: {}, is_pinned: true, ...over });

test('when the pinned list arrives, then its posts keep the server order (oldest first) and deleted or missing ones are left out', () => {
  const list = { order: ['b', 'x', 'a', 'd'], posts: { a: post('a'), b: post('b'), d: post('d', { delete_at: 9 }) } };
  assert.deepEqual(pinnedInOrder(list).map((p) => p.id), ['b', 'a']);
});

test('when a post is pinned or unpinned, then POST /posts/{id}/pin or /unpin is sent with the CSRF header and no body', async () => {
  const server = fakeApi([route('POST', '/api/v4/posts/p1/pin', { status: 'OK' }), route('POST', '/api/v4/posts/p1/unpin', { status: 'OK' })]);
  try {
    assert.deepEqual(await setPinned('p1', true), { status: 'OK' });
    await setPinned('p1', false);
    assert.deepEqual(server.seen.map((r) => `${r.method} ${r.path} ${String(r.body)}`), ['POST /api/v4/posts/p1/pin undefined', 'POST /api/v4/posts/p1/unpin undefined']);
    assert.equal(server.seen[0]?.headers['x-csrf-token'], 'csrf-1');
  } finally {
    server.restore();
  }
});

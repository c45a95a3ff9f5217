import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError } from '../../test-support/assert-error';
import { postsHarness, type Caller, type PostsHarness } from '../../test-support/http-harness';

describe('post rules over time and config', () => {
  let h: PostsHarness;
  let team: string;
  let alice: Caller;
  let channel: { id: string };

  before(async () => {
    h = await postsHarness();
    team = h.team();
    alice = h.user({ teamId: team });
    channel = await h.channel(alice, team);
  });
  after(() => h.stop());

  const idOf = (res: { json(): unknown }): string => (res.json() as { id: string }).id;
  const errorId = (res: { json(): unknown }): string => (res.json() as { id: string }).id;

  it('when a pending_post_id comes back after 30 s, then a new post is created; within 30 s the first one answers', async () => {
    const first = idOf(await h.post(alice, channel.id, { pending_post_id: 'pp-1' }));
    h.clock.advance(29_000);
    assert.equal(idOf(await h.post(alice, channel.id, { pending_post_id: 'pp-1' })), first);
    h.clock.advance(2_000);
    assert.notEqual(idOf(await h.post(alice, channel.id, { pending_post_id: 'pp-1' })), first);
    const bob = h.user({ teamId: team });
    await h.join(channel.id, bob);
    assert.notEqual(idOf(await h.post(bob, channel.id, { pending_post_id: 'pp-1' })), first, 'another user never gets someone else\'s post');
  });

  it('when PostEditTimeLimit has passed, then the author cannot edit (400) but an admin can', async () => {
    h.setConfig((c) => {
      c.ServiceSettings.PostEditTimeLimit = 60;
    });
    try {
      const id = idOf(await h.post(alice, channel.id));
      h.clock.advance(30_000);
      assert.equal((await h.request('PUT', `/api/v4/posts/${id}/patch`, { as: alice, body: { message: 'in time' } })).statusCode, 200);
      h.clock.advance(31_000);
      const late = await h.request('PUT', `/api/v4/posts/${id}/patch`, { as: alice, body: { message: 'too late' } });
      assert.equal(late.statusCode, 400);
      assert.equal(errorId(late), 'api.post.update_post.permissions_time_limit.app_error');
      const admin = h.user({ roles: 'system_user system_admin' });
      assert.equal((await h.request('PUT', `/api/v4/posts/${id}/patch`, { as: admin, body: { message: 'admin edit' } })).statusCode, 200);
    } finally {
      h.setConfig((c) => {
        c.ServiceSettings.PostEditTimeLimit = -1;
      });
    }
  });

  it('when a priority is set on a reply or while PostPriority is off, then 400 / 403; on a root post it is kept in metadata', async () => {
    const root = idOf(await h.post(alice, channel.id, { metadata: { priority: { priority: 'urgent' } } }));
    const stored = await h.repositories.posts.findById(root);
    assert.deepEqual(stored?.metadata, { priority: { priority: 'urgent' } });
    const reply = await h.post(alice, channel.id, { root_id: root, metadata: { priority: { priority: 'important' } } });
    assert.equal(errorId(reply), 'api.post.post_priority.priority_post_only_allowed_for_root_post.request_error');
    h.setConfig((c) => {
      c.ServiceSettings.PostPriority = false;
    });
    try {
      const off = await h.post(alice, channel.id, { metadata: { priority: { priority: 'urgent' } } });
      assertError(off, 403, 'api.post.post_priority.priority_post_not_allowed_for_user.request_error');
    } finally {
      h.setConfig((c) => {
        c.ServiceSettings.PostPriority = true;
      });
    }
  });

  it('when create_at is sent, then only a system admin\'s is honoured', async () => {
    const member = await h.post(alice, channel.id, { create_at: 1_000 });
    assert.notEqual((member.json() as { create_at: number }).create_at, 1_000);
    const admin = h.user({ roles: 'system_user system_admin' });
    const imported = await h.post(admin, channel.id, { create_at: 1_000 });
    assert.equal((imported.json() as { create_at: number }).create_at, 1_000);
  });

  it('when client props carry add_channel_member or force_notification, then they are removed', async () => {
    const res = await h.post(alice, channel.id, { props: { add_channel_member: { x: 1 }, force_notification: 'x', kept: 'y' } });
    assert.deepEqual((res.json() as { props: unknown }).props, { kept: 'y' });
  });

  it('when permanent deletion is enabled, then an admin removes the post for good; a member may not', async () => {
    h.setConfig((c) => {
      c.ServiceSettings.EnableAPIPostDeletion = true;
    });
    try {
      const id = idOf(await h.post(alice, channel.id));
      assertError(await h.request('DELETE', `/api/v4/posts/${id}?permanent=true`, { as: alice }), 403, 'api.context.permissions.app_error');
      const admin = h.user({ roles: 'system_user system_admin' });
      assert.equal((await h.request('DELETE', `/api/v4/posts/${id}?permanent=true`, { as: admin })).statusCode, 200);
      assert.equal(await h.repositories.posts.findById(id), undefined);
      const deleted = h.sink.published.filter((e) => e.value.type === 'post.deleted' && (e.value.payload.post as { id: string }).id === id);
      assert.equal(deleted.length, 1, 'post.deleted went out before the document (and its outbox) was removed');
    } finally {
      h.setConfig((c) => {
        c.ServiceSettings.EnableAPIPostDeletion = false;
      });
    }
  });
});

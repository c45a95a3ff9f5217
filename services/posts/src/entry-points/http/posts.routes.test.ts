import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Topics } from '@switchyard/contracts';
import { postsHarness, type PostsHarness } from '../../test-support/http-harness';

describe('posts routes', () => {
  let h: PostsHarness;
  before(async () => {
    h = await postsHarness();
  });
  after(() => h.stop());

  it('when a member posts, then 201 with the Post, and post.created goes out keyed by channel id with a deterministic id', async () => {
    const team = h.team();
    const alice = h.user({ teamId: team });
    const channel = await h.channel(alice, team);
    const res = await h.post(alice, channel.id, { message: 'hi #there', props: { a: 1 } });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.headers['content-type'], 'application/json');
    const post = res.json() as Record<string, unknown>;
    assert.equal(post.user_id, alice.id);
    assert.equal(post.channel_id, channel.id);
    assert.equal(post.message, 'hi #there');
    assert.equal(post.hashtags, '#there');
    assert.deepEqual(post.props, { a: 1 });
    assert.deepEqual(post.file_ids, []);
    assert.equal(post.participants, null);
    assert.equal('pending_events' in post, false);
    await h.app.outbox.idle();
    const events = h.sink.of(Topics.postsEvents, 'post.created');
    const event = events.find((e) => (e.value.payload.post as { id: string }).id === post.id);
    assert.ok(event);
    assert.equal(event.key, channel.id);
    assert.equal(event.value.id, `${String(post.id)}:created`);
    assert.deepEqual(event.value.payload.author, { id: alice.id, username: alice.username, is_bot: false });
    assert.deepEqual((event.value.payload.team as { id: string }).id, team);
    assert.equal(event.value.payload.source, 'api');
    assert.equal((await h.repositories.posts.findById(String(post.id)))?.pending_events.length, 0);
  });

  it('when a non-member posts to an open channel, then 403 api.context.permissions.app_error', async () => {
    const team = h.team();
    const alice = h.user({ teamId: team });
    const bob = h.user({ teamId: team });
    const channel = await h.channel(alice, team);
    const res = await h.post(bob, channel.id);
    assert.equal(res.statusCode, 403);
    assert.equal((res.json() as { id: string }).id, 'api.context.permissions.app_error');
  });

  it('when the list is read, then a PostList newest first', async () => {
    const team = h.team();
    const alice = h.user({ teamId: team });
    const channel = await h.channel(alice, team);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      h.clock.advance(10);
      ids.push((((await h.post(alice, channel.id, { message: `m${i}` })).json()) as { id: string }).id);
    }
    const res = await h.request('GET', `/api/v4/channels/${channel.id}/posts?per_page=2`, { as: alice });
    assert.equal(res.statusCode, 200, res.body);
    const list = res.json() as { order: string[]; posts: Record<string, unknown>; prev_post_id: string };
    assert.deepEqual(list.order, [ids[2], ids[1]]);
    assert.equal(list.prev_post_id, ids[0]);
  });
});

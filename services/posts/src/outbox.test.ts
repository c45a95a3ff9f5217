import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Topics } from '@switchyard/contracts';
import { memoryRepositories } from './adapters/memory';
import { postsHarness } from './test-support/http-harness';
import { FakeUsers } from './test-support/fake-users';
import { RecordingSink } from './test-support/recording-sink';

describe('outbox', () => {
  it('when the bus fails right after the post is stored, then the event stays pending and the sweep publishes it once with the same id', async () => {
    const h = await postsHarness();
    try {
      const team = h.team();
      const alice = h.user({ teamId: team });
      const channel = await h.channel(alice, team);
      h.sink.failNext(1);
      const res = await h.post(alice, channel.id, { message: 'survives' });
      assert.equal(res.statusCode, 201);
      const id = (res.json() as { id: string }).id;
      await h.app.outbox.idle();
      assert.equal(h.sink.of(Topics.postsEvents, 'post.created').length, 0);
      assert.deepEqual((await h.repositories.posts.findById(id))?.pending_events.map((e) => e.id), [`${id}:created`]);

      assert.equal(await h.app.outbox.sweep(), 1);
      const published = h.sink.of(Topics.postsEvents, 'post.created');
      assert.deepEqual(published.map((p) => p.value.id), [`${id}:created`]);
      assert.equal((await h.repositories.posts.findById(id))?.pending_events.length, 0);
      assert.equal(await h.app.outbox.sweep(), 0);
    } finally {
      await h.stop();
    }
  });

  it('when the process stops between storing and publishing, then a new app on the same repositories publishes the event at start', async () => {
    const repositories = memoryRepositories();
    const users = new FakeUsers();
    const deadSink = new RecordingSink();
    deadSink.failNext(Number.MAX_SAFE_INTEGER);
    const first = await postsHarness({ repositories, users, sink: deadSink });
    const team = first.team();
    const alice = first.user({ teamId: team });
    const channel = await first.channel(alice, team);
    const res = await first.post(alice, channel.id, { message: 'before the crash' });
    const id = (res.json() as { id: string }).id;
    await first.stop();
    assert.equal(deadSink.published.length, 0);

    const second = await postsHarness({ repositories, users });
    try {
      const events = second.sink.of(Topics.postsEvents, 'post.created');
      assert.equal(events.length, 1);
      const event = events[0];
      assert.equal(event?.value.id, `${id}:created`);
      assert.equal(event?.key, channel.id);
      assert.equal((event?.value.payload.post as { message: string }).message, 'before the crash');
      assert.deepEqual(event?.value.payload.author, { id: alice.id, username: alice.username, is_bot: false });
      assert.equal(event?.value.payload.from_webhook, false);
      assert.equal(event?.value.payload.is_system, false);
    } finally {
      await second.stop();
    }
  });

  it('when a post is edited, deleted and reacted to, then post.updated, reaction.added/removed and post.deleted follow in order on the channel key', async () => {
    const h = await postsHarness();
    try {
      const team = h.team();
      const alice = h.user({ teamId: team });
      const channel = await h.channel(alice, team);
      const id = ((await h.post(alice, channel.id)).json() as { id: string }).id;
      h.clock.advance(5);
      assert.equal((await h.request('PUT', `/api/v4/posts/${id}/patch`, { as: alice, body: { message: 'edited' } })).statusCode, 200);
      h.clock.advance(5);
      assert.equal((await h.request('POST', '/api/v4/reactions', { as: alice, body: { user_id: alice.id, post_id: id, emoji_name: 'tada' } })).statusCode, 200);
      h.clock.advance(5);
      assert.equal((await h.request('DELETE', `/api/v4/users/${alice.id}/posts/${id}/reactions/tada`, { as: alice })).statusCode, 200);
      h.clock.advance(5);
      assert.equal((await h.request('DELETE', `/api/v4/posts/${id}`, { as: alice })).statusCode, 200);
      await h.app.outbox.idle();
      const events = h.sink.of(Topics.postsEvents).filter((e) => (e.value.payload.post as { id: string }).id === id);
      assert.deepEqual(events.map((e) => e.value.type), ['post.created', 'post.updated', 'reaction.added', 'reaction.removed', 'post.deleted']);
      assert.ok(events.every((e) => e.key === channel.id));
      const added = events[2]?.value.payload as { reaction: { emoji_name: string; user_id: string }; reactor: { id: string } };
      assert.equal(added.reaction.emoji_name, 'tada');
      assert.equal(added.reactor.id, alice.id);
      assert.equal(new Set(events.map((e) => e.value.id)).size, 5);
    } finally {
      await h.stop();
    }
  });
});

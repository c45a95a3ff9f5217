import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Topics } from '@switchyard/contracts';
import { memoryRepositories } from './adapters/memory';
import { ManualClock } from '@switchyard/ids';
import { postsHarness, type Caller, type PostsHarness } from './test-support/http-harness';
import { FakeUsers } from './test-support/fake-users';
import { RecordingSink } from './test-support/recording-sink';

/** What every outbox test starts from: a posts app, one team, alice in it and a channel of hers. */
interface RelayWorld {
  readonly h: PostsHarness;
  readonly alice: Caller;
  readonly channel: { readonly id: string; readonly name: string };
  /** Creates a channel of alice's in the same team. */
  anotherChannel(): Promise<{ readonly id: string; readonly name: string }>;
  /** Alice posts `message` (201 asserted) and gets the post's id. */
  postId(message: string, channelId?: string): Promise<string>;
}

/** Runs `act` against a fresh posts app with the given sink, clock or repositories, and stops the app afterwards. */
async function givenRelayWith(options: Parameters<typeof postsHarness>[0], act: (world: RelayWorld) => Promise<void>): Promise<void> {
  const h = await postsHarness(options);
  try {
    const team = h.team();
    const alice = h.user({ teamId: team });
    const channel = await h.channel(alice, team);
    const postId = async (message: string, channelId = channel.id): Promise<string> => {
      const res = await h.post(alice, channelId, { message });
      assert.equal(res.statusCode, 201, res.body);
      return (res.json() as { id: string }).id;
    };
    await act({ h, alice, channel, anotherChannel: () => h.channel(alice, team), postId });
  } finally {
    await h.stop();
  }
}

/** The post ids of the channel's post.created events, in publish order. */
const createdIn = (sink: RecordingSink, channelId: string): string[] =>
  sink.of(Topics.postsEvents, 'post.created').filter((e) => e.key === channelId).map((e) => (e.value.payload.post as { id: string }).id);

describe('outbox', () => {
  it('when the bus fails right after the post is stored, then the event stays pending and the sweep publishes it once with the same id', () =>
    givenRelayWith({}, async ({ h, postId }) => {
      h.sink.failNext(1);
      const id = await postId('survives');
      await h.app.outbox.idle();
      assert.equal(h.sink.of(Topics.postsEvents, 'post.created').length, 0);
      assert.deepEqual((await h.repositories.posts.findById(id))?.pending_events.map((e) => e.id), [`${id}:created`]);

      assert.equal(await h.app.outbox.sweep(), 1);
      const published = h.sink.of(Topics.postsEvents, 'post.created');
      assert.deepEqual(published.map((p) => p.value.id), [`${id}:created`]);
      assert.equal((await h.repositories.posts.findById(id))?.pending_events.length, 0);
      assert.equal(await h.app.outbox.sweep(), 0);
    }));

  it('when the process stops between storing and publishing, then a new app on the same repositories publishes the event at start', async () => {
    const repositories = memoryRepositories();
    const users = new FakeUsers();
    const deadSink = new RecordingSink();
    deadSink.failNext(Number.MAX_SAFE_INTEGER);
    let stored: { id: string; channelId: string; alice: Caller } | undefined;
    await givenRelayWith({ repositories, users, sink: deadSink }, async ({ alice, channel, postId }) => {
      stored = { id: await postId('before the crash'), channelId: channel.id, alice };
    });
    assert.ok(stored);
    assert.equal(deadSink.published.length, 0);

    const second = await postsHarness({ repositories, users });
    try {
      const events = second.sink.of(Topics.postsEvents, 'post.created');
      assert.equal(events.length, 1);
      const event = events[0];
      assert.equal(event?.value.id, `${stored.id}:created`);
      assert.equal(event?.key, stored.channelId);
      assert.equal((event?.value.payload.post as { message: string }).message, 'before the crash');
      assert.deepEqual(event?.value.payload.author, { id: stored.alice.id, username: stored.alice.username, is_bot: false });
      assert.equal(event?.value.payload.from_webhook, false);
      assert.equal(event?.value.payload.is_system, false);
    } finally {
      await second.stop();
    }
  });

  it('when a post is edited, deleted and reacted to, then post.updated, reaction.added/removed and post.deleted follow in order on the channel key', () =>
    givenRelayWith({}, async ({ h, alice, channel, postId }) => {
      const id = await postId('hello');
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
    }));

  it('when post A fails to publish and B of the same channel follows, then the channel sees A then B, each once', () =>
    givenRelayWith({}, async ({ h, channel, postId }) => {
      h.sink.failNext(1);
      const a = await postId('A');
      await h.app.outbox.idle();
      assert.deepEqual(createdIn(h.sink, channel.id), []);
      h.clock.advance(1);
      const b = await postId('B');
      await h.app.outbox.idle();
      assert.deepEqual(createdIn(h.sink, channel.id), [a, b], 'A goes out before B, without waiting for the sweep');
      assert.deepEqual((await h.repositories.posts.findById(a))?.pending_events, []);
      assert.equal(await h.app.outbox.sweep(), 0);
      assert.deepEqual(createdIn(h.sink, channel.id), [a, b], 'nothing published twice');
    }));

  it('when the bus still fails as B follows A, then B is held behind A and the sweep publishes A then B; other channels go on', () =>
    givenRelayWith({}, async ({ h, channel, anotherChannel, postId }) => {
      const other = await anotherChannel();
      h.sink.failNext(2); // A's publish, then A's again when B's run tries it first
      const a = await postId('A');
      h.clock.advance(1);
      const b = await postId('B');
      await h.app.outbox.idle();
      const elsewhere = await postId('another channel', other.id);
      await h.app.outbox.idle();
      assert.deepEqual(createdIn(h.sink, other.id), [elsewhere], 'another channel is not held up');
      assert.deepEqual(createdIn(h.sink, channel.id), [], 'B waits behind A');
      assert.equal(await h.app.outbox.sweep(), 2);
      await h.app.outbox.idle();
      assert.deepEqual(createdIn(h.sink, channel.id), [a, b]);
      assert.deepEqual((await h.repositories.posts.findById(b))?.pending_events, []);
      assert.equal(await h.app.outbox.sweep(), 0);
      assert.deepEqual(createdIn(h.sink, channel.id), [a, b], 'nothing published twice');
    }));

  it('when A and B are held back and the bus is back for C, then C goes out after A and B', () =>
    givenRelayWith({}, async ({ h, channel, postId }) => {
      h.sink.failNext(2);
      const ids: string[] = [];
      for (const message of ['A', 'B', 'C']) {
        ids.push(await postId(message));
        await h.app.outbox.idle();
        h.clock.advance(1);
      }
      assert.deepEqual(createdIn(h.sink, channel.id), ids);
      assert.equal(await h.app.outbox.sweep(), 0);
    }));

  it('when the bus is slow to acknowledge A, then B of the same channel is published after A', () => {
    const sink = new HeldSink();
    return givenRelayWith({ sink }, async ({ h, channel, postId }) => {
      try {
        sink.holdNext();
        const a = await postId('A');
        h.clock.advance(1);
        const b = await postId('B');
        const swept = h.app.outbox.sweep(); // a sweep meanwhile must not overtake A either
        await new Promise((resolve) => setImmediate(resolve));
        sink.release();
        await swept;
        await h.app.outbox.idle();
        assert.deepEqual(createdIn(sink, channel.id), [a, b]);
      } finally {
        sink.release();
      }
    });
  });

  it('when the bus is slow to acknowledge A, then B, C and D of the same channel go out together in the next publish, in order, and leave the outbox', () => {
    const sink = new HeldSink();
    return givenRelayWith({ sink }, async ({ h, channel, postId }) => {
      try {
        sink.holdNext();
        const a = await postId('A');
        const later: string[] = [];
        for (const message of ['B', 'C', 'D']) {
          h.clock.advance(1);
          later.push(await postId(message));
        }
        sink.release();
        await h.app.outbox.idle();
        assert.deepEqual(createdIn(sink, channel.id), [a, ...later]);
        assert.deepEqual(sink.calls, [1, 3], 'A alone, then the three queued behind it in one publish');
        for (const id of [a, ...later]) assert.deepEqual((await h.repositories.posts.findById(id))?.pending_events, []);
        assert.equal(await h.app.outbox.sweep(), 0);
      } finally {
        sink.release();
      }
    });
  });

  it('when N posts are created at once in one channel, then post.created events are published in create_at order', () =>
    givenRelayWith({ clock: new TickingClock() }, async ({ h, alice, channel }) => {
      const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => h.post(alice, channel.id, { message: `m${i}` })));
      assert.ok(answers.every((r) => r.statusCode === 201));
      await h.app.outbox.idle();
      const events = h.sink.of(Topics.postsEvents, 'post.created').filter((e) => e.key === channel.id);
      assert.equal(events.length, 25);
      const createAts = events.map((e) => (e.value.payload.post as { create_at: number }).create_at);
      assert.deepEqual(createAts, [...createAts].sort((x, y) => x - y));
      assert.equal(new Set(createAts).size, 25, 'the ticking clock gives each post its own create_at');
    }));
});

/** A clock that moves one millisecond at every reading, so that each post gets its own create_at. */
class TickingClock extends ManualClock {
  public override now(): number {
    this.advance(1);
    return super.now();
  }
}

/** A sink whose next publish waits until `release()` (a broker slow to acknowledge). */
class HeldSink extends RecordingSink {
  private gate: Promise<void> | undefined;
  private open: () => void = () => undefined;
  /** How many messages each publish to posts.events carried, in call order. */
  public readonly calls: number[] = [];

  public holdNext(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }

  public release(): void {
    this.open();
  }

  public override async publish(topic: string, messages: readonly { key: string; value: unknown }[]): Promise<void> {
    if (topic === Topics.postsEvents) this.calls.push(messages.length);
    const gate = this.gate;
    this.gate = undefined;
    if (gate) await gate;
    await super.publish(topic, messages);
  }
}

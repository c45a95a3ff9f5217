import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Topics } from '@switchyard/contracts';
import { memoryRepositories } from './adapters/memory';
import { postsHarness, type Caller, type PostsHarness } from './test-support/http-harness';
import { FakeUsers } from './test-support/fake-users';
import { RecordingSink } from './test-support/recording-sink';

/** bob named in the text, carol only inside a code span and dave inside a fenced block: only bob is mentioned. */
const message = (bob: Caller, carol: Caller, dave: Caller): string => `@${bob.username} see \`@${carol.username}\`\n\n\`\`\`\n@${dave.username}\n\`\`\``;

interface MentionWorld {
  readonly h: PostsHarness;
  readonly alice: Caller;
  readonly bob: Caller;
  readonly channelId: string;
  /** Alice posts the message naming bob in text and carol and dave in code (201 asserted); answers the post's id. */
  post(): Promise<string>;
}

/** A posts app where alice, bob, carol and dave are members of alice's channel; stops the app afterwards. */
async function givenMembers(options: Parameters<typeof postsHarness>[0], act: (world: MentionWorld) => Promise<void>): Promise<void> {
  const h = await postsHarness(options);
  try {
    const team = h.team();
    const [alice, bob, carol, dave] = [h.user({ teamId: team }), h.user({ teamId: team }), h.user({ teamId: team }), h.user({ teamId: team })];
    const channel = await h.channel(alice, team);
    for (const member of [bob, carol, dave]) await h.join(channel.id, member, alice);
    const post = async (): Promise<string> => {
      const res = await h.post(alice, channel.id, { message: message(bob, carol, dave) });
      assert.equal(res.statusCode, 201, res.body);
      return (res.json() as { id: string }).id;
    };
    await act({ h, alice, bob, channelId: channel.id, post });
  } finally {
    await h.stop();
  }
}

/** The `mentions` of the post's post.created events (undefined when an event has none). */
const mentionsOf = (sink: RecordingSink, postId: string): (readonly string[] | undefined)[] =>
  sink
    .of(Topics.postsEvents, 'post.created')
    .filter((e) => (e.value.payload.post as { id: string }).id === postId)
    .map((e) => e.value.payload.mentions as readonly string[] | undefined);

describe('outbox: post.created mentions off the normal path', () => {
  it('when the post goes out at once, then post.created carries the members its Markdown text names (not those in code)', () =>
    givenMembers({}, async ({ h, bob, post }) => {
      const id = await post();
      await h.app.outbox.idle();
      assert.deepEqual(mentionsOf(h.sink, id), [[bob.id]]);
    }));

  it('when the bus fails as the post is stored, then the sweep publishes post.created with the same mentions, read from Markdown text', () =>
    givenMembers({}, async ({ h, bob, post }) => {
      h.sink.failNext(1);
      const id = await post();
      await h.app.outbox.idle();
      assert.deepEqual(mentionsOf(h.sink, id), []);
      assert.equal(await h.app.outbox.sweep(), 1);
      assert.deepEqual(mentionsOf(h.sink, id), [[bob.id]]);
    }));

  it('when the process stops between storing and publishing, then the new app publishes post.created at start with the mentions', async () => {
    const repositories = memoryRepositories();
    const users = new FakeUsers();
    const deadSink = new RecordingSink();
    deadSink.failNext(Number.MAX_SAFE_INTEGER);
    let stored: { id: string; bob: string } | undefined;
    await givenMembers({ repositories, users, sink: deadSink }, async ({ bob, post }) => {
      stored = { id: await post(), bob: bob.id };
    });
    assert.ok(stored);
    assert.equal(deadSink.published.length, 0);
    const second = await postsHarness({ repositories, users });
    try {
      assert.deepEqual(mentionsOf(second.sink, stored.id), [[stored.bob]]);
    } finally {
      await second.stop();
    }
  });

  it('when a held post names nobody outside code, then its post.created carries no one (realtime does not read the raw text)', () =>
    givenMembers({}, async ({ h, alice, channelId }) => {
      h.sink.failNext(1);
      const res = await h.post(alice, channelId, { message: 'all in code: `@channel` and `@here`' });
      assert.equal(res.statusCode, 201, res.body);
      const id = (res.json() as { id: string }).id;
      await h.app.outbox.idle();
      assert.equal(await h.app.outbox.sweep(), 1);
      assert.deepEqual(mentionsOf(h.sink, id), [[]]);
    }));
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Topics } from '@switchyard/contracts';
import { connectMongo, type Connection } from '@switchyard/mongo-kit';
import { createPostsMongoRepositories } from './adapters/mongo';
import { postsHarness } from './test-support/http-harness';
import { FakeUsers } from './test-support/fake-users';
import { RecordingSink } from './test-support/recording-sink';

const url = process.env.MONGO_URL;

describe('outbox on MongoDB', { skip: !url && 'MONGO_URL not set: run deploy/local/up.sh' }, () => {
  const dbName = `posts_outbox_it_${randomBytes(6).toString('hex')}`;
  let connection: Connection | undefined;

  before(async () => {
    connection = await connectMongo({ url: url ?? '', dbName, serverSelectionTimeoutMs: 5_000 });
  });
  after(async () => {
    if (!connection) return;
    await connection.dropDatabase();
    await connection.close();
  });

  it('when the app dies between storing a post and publishing, then a new app on the same database publishes post.created once at start', async () => {
    if (!connection) throw new Error('not connected');
    const users = new FakeUsers();
    const dead = new RecordingSink();
    dead.failNext(Number.MAX_SAFE_INTEGER);
    const first = await postsHarness({ repositories: await createPostsMongoRepositories(connection), users, sink: dead });
    const team = first.team();
    const alice = first.user({ teamId: team });
    const channel = await first.channel(alice, team);
    const res = await first.post(alice, channel.id, { message: 'stored, not published', props: { attachments: [{ actions: [{ name: 'x', integration: { url: 'http://i', context: { s: 1 } } }] }] } });
    assert.equal(res.statusCode, 201, res.body);
    const id = (res.json() as { id: string }).id;
    await first.stop();

    const second = await postsHarness({ repositories: await createPostsMongoRepositories(connection), users });
    try {
      const created = second.sink.of(Topics.postsEvents, 'post.created');
      assert.deepEqual(created.map((e) => e.value.id), [`${id}:created`]);
      const post = created[0]?.value.payload.post as { props: { attachments: { actions: { integration?: unknown }[] }[] } };
      assert.deepEqual(post.props.attachments[0]?.actions[0]?.integration, { url: 'http://i', context: { s: 1 } }, 'events carry the stored post, integrations included');
      assert.equal((await second.repositories.posts.findById(id))?.pending_events.length, 0);
      assert.equal(await second.app.outbox.sweep(), 0);
    } finally {
      await second.stop();
    }
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { envelope, Topics } from '@switchyard/contracts';
import { RecordingSocket, session } from '../../test-support/fakes';
import { ArchiveLog, streamSetup } from '../../test-support/stream-setup';
import { CursorExpiredError, Turns } from '../../domain/stream/history';

const channel = { id: 'c1', team_id: 't', team_name: 'tn', type: 'O', name: 'n', display_name: 'N', creator_id: 'alice', delete_at: 0 };
const post = (id: string) => ({
  post: { id, create_at: 1, update_at: 1, edit_at: 0, delete_at: 0, is_pinned: false, user_id: 'alice', channel_id: 'c1', root_id: '', original_id: '', message: id, type: '', props: {}, hashtags: '', file_ids: [], pending_post_id: '', reply_count: 0, last_reply_at: 0, participants: null },
  channel,
  team: { id: 't', name: 'tn' },
  author: { id: 'alice', username: 'alice', is_bot: false },
  source: 'api',
  from_webhook: false,
  is_system: false,
});

const settle = async (): Promise<void> => {
  for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

const posted = (socket: RecordingSocket): string[] => socket.events('posted').map((f) => (JSON.parse((f.data as { post: string }).post) as { id: string }).id);

/** bob joins c1, 10 posts pass, he leaves, 5 more pass: `cursor` is from before all of it. */
async function history(log: ArchiveLog, maxRecords: number) {
  const replica = streamSetup({ maxRecords, log });
  replica.directory.addChannelMember('c1', 'alice');
  const first = new RecordingSocket();
  replica.hub.open(first, { session: session('bob'), connectionId: '', sequenceNumber: 0 });
  const cursor = String(first.events('hello')[0]?.cursor);
  await replica.publish(Topics.postsEvents, envelope('post.created', post('before')));
  replica.directory.addChannelMember('c1', 'bob');
  await replica.publish(Topics.channelsEvents, envelope('channel.member_added', { channel, user_id: 'bob', actor_id: 'alice' }));
  for (let i = 0; i < 10; i += 1) await replica.publish(Topics.postsEvents, envelope('post.created', post(`p${i}`)));
  replica.directory.removeChannelMember('c1', 'bob');
  await replica.publish(Topics.channelsEvents, envelope('channel.member_removed', { channel, user_id: 'bob', actor_id: 'alice' }));
  for (let i = 0; i < 5; i += 1) await replica.publish(Topics.postsEvents, envelope('post.created', post(`after${i}`)));
  return { replica, cursor, live: posted(first) };
}

describe('event cursors: resumes older than what the replica holds', () => {
  it('when the replica holds only the last 2 records, then a resume reads the rest from the log: what bob may see, as it was, once, in order', async () => {
    const log = new ArchiveLog();
    const { replica, cursor, live } = await history(log, 2);
    assert.deepEqual(live, Array.from({ length: 10 }, (_, i) => `p${i}`));
    const resumed = new RecordingSocket();
    replica.hub.open(resumed, { session: session('bob'), connectionId: '', sequenceNumber: 0, cursor });
    await settle();
    assert.equal((resumed.events('hello')[0]?.data as { resume?: string }).resume, 'complete');
    assert.deepEqual(posted(resumed), live);
    assert.ok(log.reads > 0, 'the log was read');
  });

  it('when a replica that just started (holding nothing) is given an old cursor, then it resumes it from the log', async () => {
    const log = new ArchiveLog();
    const { replica, cursor, live } = await history(log, 100);
    const fresh = streamSetup({ maxRecords: 100, log }, { clock: replica.clock, directory: replica.directory, offsets: replica.offsets });
    const resumed = new RecordingSocket();
    fresh.hub.open(resumed, { session: session('bob'), connectionId: '', sequenceNumber: 0, cursor });
    await settle();
    assert.equal((resumed.events('hello')[0]?.data as { resume?: string }).resume, 'complete');
    assert.deepEqual(posted(resumed), live);
    // Then live, without a gap or a duplicate at the seam.
    fresh.directory.addChannelMember('c1', 'bob');
    await fresh.publish(Topics.channelsEvents, envelope('channel.member_added', { channel, user_id: 'bob', actor_id: 'alice' }));
    await fresh.publish(Topics.postsEvents, envelope('post.created', post('live')));
    assert.deepEqual(posted(resumed), [...live, 'live']);
  });

  it('when the log no longer has the records a cursor needs, then the socket is closed "cursor expired" and the HTTP batch throws expired; nothing is replayed', async () => {
    const log = new ArchiveLog();
    const { replica, cursor } = await history(log, 2);
    log.keptFrom.set(`${Topics.postsEvents}#0`, 3);
    const resumed = new RecordingSocket();
    replica.hub.open(resumed, { session: session('bob'), connectionId: '', sequenceNumber: 0, cursor });
    await settle();
    assert.deepEqual(posted(resumed), []);
    assert.equal(resumed.closedWith, 1011);
    const checked = replica.cursors.check(cursor, 'bob');
    assert.ok(checked.position);
    await assert.rejects(replica.cursors.batch({ userId: 'bob', isAdmin: false, username: 'bob' }, checked.position, 100), CursorExpiredError);
  });

  it('when there is no log, then a cursor older than what the replica holds is expired (as before)', async () => {
    const replica = streamSetup({ maxRecords: 2 });
    const first = new RecordingSocket();
    replica.hub.open(first, { session: session('bob'), connectionId: '', sequenceNumber: 0 });
    const cursor = String(first.events('hello')[0]?.cursor);
    for (let i = 0; i < 5; i += 1) await replica.publish(Topics.postsEvents, envelope('post.created', post(`p${i}`)));
    assert.equal(replica.cursors.check(cursor, 'bob').status, 'expired');
  });

  it('when an HTTP batch needs more than its budget of the log, then it answers what it has with `more` and the next batch goes on from its cursor', async () => {
    const log = new ArchiveLog();
    const { replica, cursor, live } = await history(log, 2);
    const viewer = { userId: 'bob', isAdmin: false, username: 'bob' };
    const got: string[] = [];
    let at = cursor;
    for (let i = 0; i < 20; i += 1) {
      const position = replica.cursors.check(at, 'bob').position;
      assert.ok(position);
      const batch = await replica.cursors.batch(viewer, position, 3);
      got.push(...batch.events.filter((e) => e.event === 'posted').map((e) => (JSON.parse((e.data as { post: string }).post) as { id: string }).id));
      at = batch.cursor;
      if (!batch.more) break;
    }
    assert.deepEqual(got, live);
  });
});

describe('event cursors: posts of channels the viewer was never in are skipped by their key', () => {
  it('when most posts after the cursor are in a channel bob never joined, then the log does not hand them over (once its membership is known), and the resume is exact', async () => {
    const log = new ArchiveLog();
    const replica = streamSetup({ maxRecords: 2, log });
    replica.directory.addChannelMember('c1', 'alice');
    replica.directory.addChannelMember('c1', 'bob');
    replica.directory.addChannelMember('c2', 'alice');
    const first = new RecordingSocket();
    replica.hub.open(first, { session: session('bob'), connectionId: '', sequenceNumber: 0 });
    const cursor = String(first.events('hello')[0]?.cursor);
    const other = { ...channel, id: 'c2' };
    for (let i = 0; i < 60; i += 1) {
      const mine = i % 10 === 0;
      await replica.publish(Topics.postsEvents, envelope('post.created', { ...post(mine ? `mine${i}` : `other${i}`), channel: mine ? channel : other }));
    }
    const live = posted(first);
    assert.equal(live.length, 6);
    // A replica that knows both channels' members (a warm cache), holding only the last 2 records.
    await replica.membership.channelMembers('c2');
    const position = replica.cursors.check(cursor, 'bob').position;
    assert.ok(position);
    const batch = await replica.cursors.batch({ userId: 'bob', isAdmin: false, username: 'bob' }, position, 100);
    assert.deepEqual(batch.events.filter((e) => e.event === 'posted').map((e) => (JSON.parse((e.data as { post: string }).post) as { id: string }).id), live);
    assert.ok(log.returned <= 10, `c2's posts were skipped by key (${log.returned} returned)`);
    // The next batch from its cursor has nothing more (the skipped tail is behind the cursor).
    const after = replica.cursors.check(batch.cursor, 'bob').position;
    assert.ok(after);
    assert.deepEqual((await replica.cursors.batch({ userId: 'bob', isAdmin: false, username: 'bob' }, after, 100)).events, []);
  });
});

describe('event cursors: resumes reading the log take turns', () => {
  it('when more resumes need the log than there are turns, then the next one waits until a turn is released', async () => {
    const turns = new Turns(2);
    const first = await turns.take();
    await turns.take();
    let third = false;
    const waiting = turns.take().then((release) => {
      third = true;
      return release;
    });
    await settle();
    assert.equal(third, false);
    first();
    first();
    await waiting;
    assert.equal(third, true);
  });
});

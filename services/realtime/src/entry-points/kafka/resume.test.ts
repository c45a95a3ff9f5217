import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { envelope, Topics } from '@switchyard/contracts';
import { RecordingSocket, session } from '../../test-support/fakes';
import { ArchiveLog, streamSetup, type StreamSetupOptions } from '../../test-support/stream-setup';

const channel = { id: 'c1', team_id: 't', team_name: 'tn', type: 'O', name: 'n', display_name: 'N', creator_id: 'alice', delete_at: 0 };
const postBody = (id: string) => ({ id, create_at: 1, update_at: 1, edit_at: 0, delete_at: 0, is_pinned: false, user_id: 'alice', channel_id: 'c1', root_id: '', original_id: '', message: id, type: '', props: {}, hashtags: '', file_ids: [], pending_post_id: '', reply_count: 0, last_reply_at: 0, participants: null });

function setup(options: StreamSetupOptions = {}) {
  return streamSetup(options);
}

/** Lets the replay (started with the hello) finish. */
const settle = async (): Promise<void> => {
  for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

const summary = (frames: Record<string, unknown>[]): string[] =>
  frames.map((f) => {
    const data = f.data as Record<string, string>;
    return data.post ? `${String(f.event)}:${(JSON.parse(data.post) as { id: string }).id}` : String(f.event);
  });

describe('event cursors: resume over WebSocket', () => {
  it('when a socket resumes from a cursor, then it gets exactly what it may see after it, as it was when it happened, each with its cursor', async () => {
    const { directory, hub, publish } = setup();
    directory.addChannelMember('c1', 'alice');
    hub.open(new RecordingSocket(), { session: session('alice'), connectionId: '', sequenceNumber: 0 });
    const live = new RecordingSocket();
    hub.open(live, { session: session('bob'), connectionId: '', sequenceNumber: 0 });
    const helloCursor = live.events('hello')[0]?.cursor;
    assert.equal(typeof helloCursor, 'string');
    assert.equal((live.events('hello')[0]?.data as { resume?: string }).resume, 'none');

    const payload = (id: string) => ({ post: postBody(id), channel, team: { id: 't', name: 'tn' }, author: { id: 'alice', username: 'alice', is_bot: false }, source: 'api', from_webhook: false, is_system: false });
    await publish(Topics.postsEvents, envelope('post.created', payload('before-join')));
    directory.addChannelMember('c1', 'bob');
    await publish(Topics.channelsEvents, envelope('channel.member_added', { channel, user_id: 'bob', actor_id: 'alice' }));
    await publish(Topics.postsEvents, envelope('post.created', payload('while-member')));
    directory.removeChannelMember('c1', 'bob');
    await publish(Topics.channelsEvents, envelope('channel.member_removed', { channel, user_id: 'bob', actor_id: 'alice' }));
    await publish(Topics.postsEvents, envelope('post.created', payload('after-leave')));

    const liveAfterHello = live.events().filter((f) => f.event !== 'hello' && f.event !== 'status_change');
    assert.deepEqual(summary(liveAfterHello), ['user_added', 'posted:while-member', 'user_removed']);
    assert.ok(liveAfterHello.every((f) => typeof f.cursor === 'string'));

    // bob is no longer a member: the post made while he was one is replayed all the same, the others not.
    const resumed = new RecordingSocket();
    hub.open(resumed, { session: session('bob'), connectionId: '', sequenceNumber: 0, cursor: String(helloCursor) });
    await settle();
    assert.equal((resumed.events('hello')[0]?.data as { resume?: string }).resume, 'complete');
    const replayed = resumed.events().filter((f) => f.event !== 'hello' && f.event !== 'status_change');
    assert.deepEqual(summary(replayed), summary(liveAfterHello));
    assert.deepEqual(replayed.map((f) => f.cursor), liveAfterHello.map((f) => f.cursor), 'the same cursors as live');

    // From the cursor of the post: only what came after it.
    const fromPost = new RecordingSocket();
    hub.open(fromPost, { session: session('bob'), connectionId: '', sequenceNumber: 0, cursor: String(liveAfterHello[1]?.cursor) });
    await settle();
    assert.deepEqual(summary(fromPost.events().filter((f) => f.event !== 'hello' && f.event !== 'status_change')), ['user_removed']);
  });

  it('when a cursor is forged or another user\'s, then hello says invalid and nothing is replayed; live events go on', async () => {
    const { directory, hub, publish } = setup();
    directory.addChannelMember('c1', 'alice');
    const aliceLive = new RecordingSocket();
    hub.open(aliceLive, { session: session('alice'), connectionId: '', sequenceNumber: 0 });
    const aliceCursor = String(aliceLive.events('hello')[0]?.cursor);
    const payload = { post: postBody('p1'), channel, team: { id: 't', name: 'tn' }, author: { id: 'alice', username: 'alice', is_bot: false }, source: 'api', from_webhook: false, is_system: false };
    await publish(Topics.postsEvents, envelope('post.created', payload));
    for (const [user, cursor] of [
      ['bob', aliceCursor],
      ['alice', `${aliceCursor.slice(0, 5)}x${aliceCursor.slice(6)}`],
      ['alice', 'garbage'],
    ] as const) {
      const socket = new RecordingSocket();
      hub.open(socket, { session: session(user), connectionId: '', sequenceNumber: 0, cursor });
      await settle();
      assert.equal((socket.events('hello')[0]?.data as { resume?: string }).resume, 'invalid', `${user} ${cursor}`);
      assert.deepEqual(socket.events('posted'), []);
    }
    const again = new RecordingSocket();
    hub.open(again, { session: session('alice'), connectionId: '', sequenceNumber: 0, cursor: aliceCursor });
    await settle();
    assert.deepEqual(summary(again.events('posted')), ['posted:p1']);
    await publish(Topics.postsEvents, envelope('post.created', { ...payload, post: postBody('p2') }));
    assert.deepEqual(summary(again.events('posted')), ['posted:p1', 'posted:p2'], 'then live, without a duplicate');
  });
});

describe('event cursors: a bot restarted at random points', () => {
  for (const [name, options] of [
    ['the replica holds every record', {}],
    ['the replica holds 3 records, the rest is read from the log', { maxRecords: 3, log: new ArchiveLog() }],
  ] as const)
  it(`when a bot is restarted 50 times at random points of a stream with joins, leaves, other channels and ephemeral messages (${name}), then what it handled is exactly what a socket that never left got, in order`, async () => {
    const { directory, hub, publish } = setup(options);
    const ALICE = 'a'.repeat(26);
    const BOB = 'b'.repeat(26);
    const c2 = { ...channel, id: 'c2', name: 'n2' };
    directory.addChannelMember('c1', ALICE);
    directory.addChannelMember('c2', ALICE);
    hub.open(new RecordingSocket(), { session: session(ALICE), connectionId: '', sequenceNumber: 0 });
    // The reference: bob's socket that never leaves.
    const reference = new RecordingSocket();
    hub.open(reference, { session: session(BOB), connectionId: '', sequenceNumber: 0 });
    // The bot: same user, restarted from the cursor of the last event it finished handling.
    let socket = new RecordingSocket();
    hub.open(socket, { session: session(BOB), connectionId: '', sequenceNumber: 0 });
    let taken = socket.frames().length;
    const handled: Record<string, unknown>[] = [];
    let cursor = String(socket.frames()[taken - 1]?.cursor);
    // A small deterministic generator (the same run every time; change the seed to explore).
    let seed = 28;
    const random = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    let member = false;
    let restarts = 0;
    for (let step = 0; step < 400; step += 1) {
      const roll = random(100);
      const post = (id: string, where: typeof channel) => ({ post: { ...postBody(id), channel_id: where.id }, channel: where, team: { id: 't', name: 'tn' }, author: { id: ALICE, username: 'alice', is_bot: false }, source: 'api', from_webhook: false, is_system: false });
      if (roll < 55) await publish(Topics.postsEvents, envelope('post.created', post(`p${step}`, channel)));
      else if (roll < 65) await publish(Topics.postsEvents, envelope('post.created', post(`q${step}`, c2)));
      else if (roll < 75) {
        if (member) directory.removeChannelMember('c1', BOB);
        else directory.addChannelMember('c1', BOB);
        member = !member;
        await publish(Topics.channelsEvents, envelope(member ? 'channel.member_added' : 'channel.member_removed', { channel, user_id: BOB, actor_id: ALICE }));
      } else if (roll < 85) {
        const to = random(2) === 0 ? BOB : ALICE;
        await publish(Topics.realtimeEvents, envelope('ephemeral.post', { user_id: to, post: { id: `e${step}`.padEnd(26, 'e'), channel_id: 'c1', user_id: to, message: 'x', type: 'system_ephemeral', props: {}, create_at: 1 } }));
      } else if (restarts < 50) {
        // A crash: the bot finished some of what it had received (at random), the rest is lost with it.
        const frames = socket.frames();
        const done = taken + random(frames.length - taken + 1);
        for (const frame of frames.slice(taken, done)) {
          handled.push(frame);
          cursor = String(frame.cursor);
        }
        socket = new RecordingSocket();
        hub.open(socket, { session: session(BOB), connectionId: '', sequenceNumber: 0, cursor });
        await settle();
        const hello = socket.frames()[0];
        assert.equal((hello?.data as { resume?: string }).resume, 'complete');
        taken = socket.frames().filter((f) => f.event === 'hello' || f.event === 'status_change').length;
        restarts += 1;
      }
    }
    handled.push(...socket.frames().slice(taken));
    const expected = reference.frames().filter((f) => f.event !== 'hello' && f.event !== 'status_change');
    assert.equal(restarts, 50);
    assert.ok(expected.length > 100, `a long enough stream (${expected.length})`);
    assert.deepEqual(handled.map((f) => [f.event, f.data]), expected.map((f) => [f.event, f.data]));
  });
});

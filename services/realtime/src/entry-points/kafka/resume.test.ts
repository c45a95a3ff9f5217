import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { envelope, Topics } from '@switchyard/contracts';
import type { BusMessage } from '@switchyard/event-bus';
import { keySet } from '@switchyard/http-kit';
import { createSilentLogger } from '@switchyard/logger';
import { MemoryDirectory } from '../../adapters/memory/directory.memory';
import { CONSUMED_TOPICS, eventsConsumer } from './events.consumer';
import { ManualClock, RecordingSocket, session } from '../../test-support/fakes';
import { Hub } from '../../domain/hub';
import { MembershipCache } from '../../domain/membership-cache';
import { CursorCodec } from '../../domain/stream/cursor';
import { EventCursors } from '../../domain/stream/event-cursors';
import { EventStream } from '../../domain/stream/event-stream';

const channel = { id: 'c1', team_id: 't', team_name: 'tn', type: 'O', name: 'n', display_name: 'N', creator_id: 'alice', delete_at: 0 };
const postBody = (id: string) => ({ id, create_at: 1, update_at: 1, edit_at: 0, delete_at: 0, is_pinned: false, user_id: 'alice', channel_id: 'c1', root_id: '', original_id: '', message: id, type: '', props: {}, hashtags: '', file_ids: [], pending_post_id: '', reply_count: 0, last_reply_at: 0, participants: null });

function setup() {
  const clock = new ManualClock();
  const directory = new MemoryDirectory();
  const membership = new MembershipCache({ source: directory, clock, ttlMs: 60_000, maxChannels: 100, maxTeamEntries: 100 });
  const stream = new EventStream(CONSUMED_TOPICS, { clock, maxRecords: 100, maxAgeMs: 0 });
  stream.start(CONSUMED_TOPICS.map((topic) => ({ topic, partition: 0, offset: '0' })));
  const codec = new CursorCodec(keySet('a-secret-of-at-least-32-characters!!'));
  const cursors = new EventCursors(codec, stream, { membership, users: directory });
  const hub = new Hub({ membership, clock, limits: { sendQueue: 64, replayBuffer: 16 }, reconnectWindowMs: 1000, defaultServerVersion: 'v', cursors });
  const handler = eventsConsumer({ hub, membership, users: directory, logger: createSilentLogger(), maxAttempts: 1, cursors });
  const offsets = new Map<string, number>();
  const publish = async (topic: string, value: { time: number }): Promise<void> => {
    clock.time += 10;
    const offset = offsets.get(topic) ?? 0;
    offsets.set(topic, offset + 1);
    const message: BusMessage = { topic, partition: 0, offset: String(offset), key: 'c1', value: { ...value, time: clock.time }, headers: {}, attempt: 1 };
    await handler(message);
  };
  return { clock, directory, membership, hub, cursors, codec, publish };
}

/** Lets the replay (started with the hello) finish. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

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

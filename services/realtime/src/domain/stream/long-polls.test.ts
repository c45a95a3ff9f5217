import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { envelope, Topics } from '@switchyard/contracts';
import type { BusMessage } from '@switchyard/event-bus';
import { streamSetup } from '../../test-support/stream-setup';
import { LongPolls, TooManyWaitingError } from './long-polls';
import type { Viewer } from './replay';

const channel = (id: string) => ({ id, team_id: 't', team_name: 'tn', type: 'O', name: id, display_name: id, creator_id: 'alice', delete_at: 0 });
const postPayload = (id: string, channelId: string) => ({
  post: { id, create_at: 1, update_at: 1, edit_at: 0, delete_at: 0, is_pinned: false, user_id: 'alice', channel_id: channelId, root_id: '', original_id: '', message: id, type: '', props: {}, hashtags: '', file_ids: [], pending_post_id: '', reply_count: 0, last_reply_at: 0, participants: null },
  channel: channel(channelId),
  team: { id: 't', name: 'tn' },
  author: { id: 'alice', username: 'alice', is_bot: false },
  source: 'api',
  from_webhook: false,
  is_system: false,
});

const bob: Viewer = { userId: 'bob', isAdmin: false, username: 'bob' };

function world(maxWaiting = 10) {
  const setup = streamSetup({ maxRecords: 1000 });
  setup.directory.addChannelMember('mine', 'alice');
  setup.directory.addChannelMember('mine', 'bob');
  setup.directory.addChannelMember('other', 'alice');
  const polls = new LongPolls(setup.cursors, setup.membership, { maxWaiting, settleMs: 1 });
  /** Records in every snapshot a batch took (how much of what the replica holds was looked at). */
  const snapshots: number[] = [];
  const snapshot = setup.stream.snapshot.bind(setup.stream);
  setup.stream.snapshot = (since?: number) => {
    const taken = snapshot(since);
    snapshots.push(taken.records.length);
    return taken;
  };
  const post = (id: string, channelId: string) => setup.publish(Topics.postsEvents, envelope('post.created', postPayload(id, channelId)));
  /** A record handled as the consumer does, but with its own time (`time`: when it happened). */
  const handle = (topic: string, key: string, value: unknown, time: number): void => {
    const offset = setup.offsets.get(topic) ?? 0;
    setup.offsets.set(topic, offset + 1);
    const message: BusMessage = { topic, partition: 0, offset: String(offset), key, value, headers: {}, attempt: 1 };
    setup.stream.delivering(message, time);
    setup.stream.handled(message, time);
  };
  return { ...setup, polls, snapshots, post, handle };
}

/** Lets a poll's first batch be made (it waits from then on). */
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const ids = (events: readonly Record<string, unknown>[]): string[] =>
  events.filter((e) => e.event === 'posted').map((e) => (JSON.parse((e.data as { post: string }).post) as { id: string }).id);

describe('long-polls of the event stream', () => {
  it('when a post for the poll comes while it waits, then it is answered with it before its wait ends, having read only the records since it waited', async () => {
    const w = world();
    for (let n = 0; n < 50; n += 1) await w.post(`old${n}`, 'other');
    const started = Date.now();
    const poll = w.polls.poll(bob, w.stream.position(), 100, 10_000);
    await tick();
    assert.equal(w.polls.waiting, 1);
    await w.post('p1', 'other');
    await w.post('p2', 'mine');
    const batch = await poll;
    assert.deepEqual(ids(batch.events), ['p2']);
    assert.ok(Date.now() - started < 5_000, 'answered when the post came, not after its wait');
    assert.equal(w.polls.waiting, 0);
    assert.ok(w.snapshots.length > 0 && w.snapshots.every((n) => n <= 2), `records looked at per look: ${JSON.stringify(w.snapshots)} (the replica holds 52)`);
    // Its cursor is past the post: nothing more from it.
    const next = w.cursors.check(batch.cursor, 'bob');
    assert.equal(next.status, 'complete');
    assert.deepEqual((await w.cursors.batch(bob, next.position as NonNullable<typeof next.position>, 100)).events, []);
  });

  it('when only posts of channels the user is not in come (their members known), then the poll looks at none of them and is answered after its wait with a cursor past them', async () => {
    const w = world();
    w.clock.time += 1_000;
    await w.membership.channelMembers('other');
    // Its wait outlasts the records handled below even on a loaded box (the answer comes when it ends).
    const poll = w.polls.poll(bob, w.stream.position(), 100, 1_500);
    await tick();
    for (let n = 0; n < 20; n += 1) w.handle(Topics.postsEvents, 'other', { ...envelope('post.created', postPayload(`x${n}`, 'other')), time: w.clock.time - 500 }, w.clock.time - 500);
    w.handle(Topics.realtimeEvents, 'mine', { ...envelope('typing', { channel_id: 'mine', parent_id: '', user_id: 'alice' }), time: w.clock.time }, w.clock.time);
    const batch = await poll;
    assert.deepEqual(batch.events, []);
    assert.deepEqual(w.snapshots, [], 'no record was looked at');
    const next = w.cursors.check(batch.cursor, 'bob');
    assert.deepEqual(next.position?.offsets, w.stream.position().offsets, 'the cursor is past everything handled');
  });

  it('when a record that may concern the poll has nothing for it, then it keeps waiting and a later post is answered alone', async () => {
    const w = world();
    const poll = w.polls.poll(bob, w.stream.position(), 100, 10_000);
    await w.post('not-mine', 'other');
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(w.polls.waiting, 1, 'still waiting after looking');
    await w.post('mine-1', 'mine');
    assert.deepEqual(ids((await poll).events), ['mine-1']);
  });

  it('when the user joins a channel while the poll waits, then a post there after the join is answered', async () => {
    const w = world();
    const poll = w.polls.poll(bob, w.stream.position(), 100, 10_000);
    w.directory.addChannelMember('other', 'bob');
    await w.publish(Topics.channelsEvents, envelope('channel.member_added', { channel: channel('other'), user_id: 'bob', actor_id: 'alice' }));
    await w.post('after-join', 'other');
    const batch = await poll;
    // The join's own event may come first in its own answer; the post follows from its cursor.
    const seen = ids(batch.events);
    if (seen.length === 0) {
      const next = w.cursors.check(batch.cursor, 'bob');
      seen.push(...ids((await w.polls.poll(bob, next.position as NonNullable<typeof next.position>, 100, 10_000)).events));
    }
    assert.deepEqual(seen, ['after-join']);
  });

  it('when the user joins a channel and a post there follows at once, the post handled before the join, then the poll gets the post (members cached before it are read again)', async () => {
    const w = world();
    // The channel's members are cached (without bob) before the join.
    await w.membership.channelMembers('other');
    const poll = w.polls.poll(bob, w.stream.position(), 100, 10_000);
    await tick();
    // bob joins (posts has it), a post follows; realtime handles the post before the join's channels.events record.
    w.clock.time += 5;
    w.directory.addChannelMember('other', 'bob');
    await w.post('right-after-join', 'other');
    assert.deepEqual(ids((await poll).events), ['right-after-join']);
  });

  it('when the user leaves a channel and a post there follows at once, the post handled before the leave, then the poll does not get the post', async () => {
    const w = world();
    // The channel's members are cached (with bob) before the leave.
    await w.membership.channelMembers('mine');
    const leaves: (() => void)[] = [];
    const poll = w.polls.poll(bob, w.stream.position(), 100, 10_000, (left) => leaves.push(left));
    await tick();
    w.clock.time += 5;
    w.directory.removeChannelMember('mine', 'bob');
    const looked = w.snapshots.length;
    const before = w.stream.position();
    await w.post('right-after-leave', 'mine');
    // The poll looks at the post (bounded wait for that look), then either answered with it (a leak) or still waits.
    for (let i = 0; i < 500 && w.snapshots.length === looked && w.polls.waiting === 1; i += 1) await new Promise((resolve) => setTimeout(resolve, 2));
    await tick();
    if (w.polls.waiting === 1) leaves[0]?.();
    assert.deepEqual(ids((await poll).events), []);
    // From a cursor before the post (a resume), nothing either.
    assert.deepEqual(ids((await w.cursors.batch(bob, before, 100)).events), []);
  });

  it('when its client leaves, then the poll stops waiting at once and frees its place; beyond maxWaiting a poll is refused', async () => {
    const w = world(2);
    // Every poll waits longer than the test runs, even on a loaded box: each ends because its client leaves.
    const leaves: (() => void)[] = [];
    const onLeave = (left: () => void): void => {
      leaves.push(left);
    };
    const first = w.polls.poll(bob, w.stream.position(), 100, 10_000, onLeave);
    const second = w.polls.poll(bob, w.stream.position(), 100, 10_000, onLeave);
    await tick();
    await assert.rejects(w.polls.poll(bob, w.stream.position(), 100, 10_000), TooManyWaitingError);
    assert.equal(w.polls.waiting, 2);
    leaves[0]?.();
    assert.equal(w.polls.waiting, 1);
    assert.deepEqual((await first).events, []);
    const third = w.polls.poll(bob, w.stream.position(), 100, 10_000, onLeave);
    await tick();
    assert.equal(w.polls.waiting, 2);
    for (const leave of leaves.slice(1)) leave();
    await Promise.all([second, third]);
    assert.equal(w.polls.waiting, 0);
  });

  it('when there are events after the cursor, or no wait, then the poll is answered at once', async () => {
    const w = world();
    const from = w.stream.position();
    await w.post('ready', 'mine');
    assert.deepEqual(ids((await w.polls.poll(bob, from, 100, 10_000)).events), ['ready']);
    assert.deepEqual((await w.polls.poll(bob, w.stream.position(), 100, 0)).events, []);
    assert.equal(w.polls.waiting, 0);
  });
});

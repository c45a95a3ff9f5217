import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { envelope, Topics } from '@switchyard/contracts';
import type { BusMessage } from '@switchyard/event-bus';
import { createSilentLogger } from '@switchyard/logger';
import { Hub } from '../../domain/hub';
import { MembershipCache } from '../../domain/membership-cache';
import { RecordingSocket, session, user, world } from '../../test-support/fakes';
import { eventsConsumer } from './events.consumer';

const message = (topic: string, value: unknown, attempt = 1): BusMessage => ({ topic, partition: 0, offset: '0', key: 'k', value, headers: {}, attempt });

describe('events consumer', () => {
  it('when a member joins a channel, then the cached members are evicted before user_added goes out, so the newcomer gets the next post', async () => {
    const w = world();
    const handler = eventsConsumer({ hub: w.hub, membership: w.membership, users: w.directory, logger: createSilentLogger(), maxAttempts: 3 });
    w.directory.addChannelMember('c1', 'old');
    const newcomer = new RecordingSocket();
    w.hub.open(newcomer, { session: session('new'), connectionId: '', sequenceNumber: 0 });
    w.hub.open(new RecordingSocket(), { session: session('old'), connectionId: '', sequenceNumber: 0 });
    await w.membership.channelMembers('c1');
    w.directory.addChannelMember('c1', 'new');
    const channel = { id: 'c1', team_id: 't', team_name: 'tn', type: 'O', name: 'n', display_name: 'N', creator_id: 'old', delete_at: 0 };
    await handler(message(Topics.channelsEvents, envelope('channel.member_added', { channel, user_id: 'new', actor_id: 'old' })));
    const post = { id: 'p1', create_at: 1, update_at: 1, edit_at: 0, delete_at: 0, is_pinned: false, user_id: 'old', channel_id: 'c1', root_id: '', original_id: '', message: 'hi', type: '', props: {}, hashtags: '', file_ids: [], pending_post_id: '', reply_count: 0, last_reply_at: 0, participants: null };
    await handler(message(Topics.postsEvents, envelope('post.created', { post, channel, team: { id: 't', name: 'tn' }, author: { id: 'old', username: 'old', is_bot: false }, source: 'api', from_webhook: false, is_system: false })));
    assert.deepEqual(newcomer.events().map((f) => f.event), ['hello', 'status_change', 'user_added', 'posted']);
  });

  it('when many members join in a row, then user_added goes to each new member set without a lookup per join, and the next post reads the members once, as posts has them', async () => {
    const w = world();
    const handler = eventsConsumer({ hub: w.hub, membership: w.membership, users: w.directory, logger: createSilentLogger(), maxAttempts: 3 });
    const channel = { id: 'c1', team_id: 't', team_name: 'tn', type: 'O', name: 'n', display_name: 'N', creator_id: 'u0', delete_at: 0 };
    const sockets = new Map<string, RecordingSocket>();
    for (const id of ['u0', 'u1', 'u2', 'u3', 'gone']) {
      const socket = new RecordingSocket();
      sockets.set(id, socket);
      w.hub.open(socket, { session: session(id), connectionId: '', sequenceNumber: 0 });
    }
    w.directory.addChannelMember('c1', 'u0');
    for (const id of ['u1', 'u2', 'u3']) {
      w.directory.addChannelMember('c1', id);
      await handler(message(Topics.channelsEvents, envelope('channel.member_added', { channel, user_id: id, actor_id: 'u0' })));
    }
    assert.equal(w.directory.memberLookups, 1, 'one lookup for the first join, none for the next ones');
    assert.deepEqual(sockets.get('u0')?.events('user_added').map((f) => (f.data as { user_id?: string }).user_id), ['u1', 'u2', 'u3']);
    assert.deepEqual(sockets.get('u1')?.events('user_added').map((f) => (f.data as { user_id?: string }).user_id), ['u1', 'u2', 'u3'], 'the newcomer by user_id, then as a member');
    assert.deepEqual(sockets.get('u3')?.events('user_added').map((f) => (f.data as { user_id?: string }).user_id), ['u3']);
    // posts says u2 left (its event not handled yet): the post goes to the members as posts has them now.
    w.directory.removeChannelMember('c1', 'u2');
    const post = { id: 'p1', create_at: 1, update_at: 1, edit_at: 0, delete_at: 0, is_pinned: false, user_id: 'u0', channel_id: 'c1', root_id: '', original_id: '', message: 'hi', type: '', props: {}, hashtags: '', file_ids: [], pending_post_id: '', reply_count: 0, last_reply_at: 0, participants: null };
    const created = { ...envelope('post.created', { post, channel, team: { id: 't', name: 'tn' }, author: { id: 'u0', username: 'u0', is_bot: false }, source: 'api', from_webhook: false, is_system: false }), time: w.clock.now() };
    w.clock.time += 1;
    await handler(message(Topics.postsEvents, created));
    assert.equal(w.directory.memberLookups, 2);
    assert.deepEqual(
      [...sockets].filter(([, s]) => s.events('posted').length > 0).map(([id]) => id),
      ['u0', 'u1', 'u3'],
    );
    await handler(message(Topics.postsEvents, created));
    assert.equal(w.directory.memberLookups, 2, 'read once after the joins, then cached');
    await handler(message(Topics.channelsEvents, envelope('channel.member_removed', { channel, user_id: 'u1', actor_id: 'u0' })));
    assert.deepEqual(sockets.get('u0')?.events('user_removed').map((f) => (f.data as { user_id?: string }).user_id), ['u1']);
    assert.equal(sockets.get('u1')?.events('user_removed').length, 1, 'the removed user by user_id only');
    assert.equal(w.directory.memberLookups, 2);
  });

  it('when a post is handled before the record of a join made before it (another topic), then the new member still gets posted; a post made before the set was read uses it', async () => {
    const w = world();
    const handler = eventsConsumer({ hub: w.hub, membership: w.membership, users: w.directory, logger: createSilentLogger(), maxAttempts: 3 });
    w.directory.addChannelMember('c1', 'old');
    const newcomer = new RecordingSocket();
    w.hub.open(newcomer, { session: session('new'), connectionId: '', sequenceNumber: 0 });
    w.hub.open(new RecordingSocket(), { session: session('old'), connectionId: '', sequenceNumber: 0 });
    await w.membership.channelMembers('c1');
    const readAt = w.clock.now();
    // The join, then the post, 1 ms later each; channels.events' record of the join is not handled yet.
    w.clock.time += 1;
    w.directory.addChannelMember('c1', 'new');
    w.clock.time += 1;
    const channel = { id: 'c1', team_id: 't', team_name: 'tn', type: 'O', name: 'n', display_name: 'N', creator_id: 'old', delete_at: 0 };
    const post = { id: 'p1', create_at: 1, update_at: 1, edit_at: 0, delete_at: 0, is_pinned: false, user_id: 'old', channel_id: 'c1', root_id: '', original_id: '', message: 'hi', type: '', props: {}, hashtags: '', file_ids: [], pending_post_id: '', reply_count: 0, last_reply_at: 0, participants: null };
    const payload = { post, channel, team: { id: 't', name: 'tn' }, author: { id: 'old', username: 'old', is_bot: false }, source: 'api', from_webhook: false, is_system: false };
    await handler(message(Topics.postsEvents, { ...envelope('post.created', payload), time: w.clock.now() }));
    assert.deepEqual(newcomer.events().map((f) => f.event), ['hello', 'status_change', 'posted']);
    assert.equal(w.directory.memberLookups, 2, 'read again: the cached set was older than the post');
    w.clock.time += 1;
    await handler(message(Topics.postsEvents, { ...envelope('post.created', { ...payload, post: { ...post, id: 'p0' } }), time: readAt - 1 }));
    assert.equal(w.directory.memberLookups, 2, 'an older post uses the set read since');
  });

  it('when a token is revoked, then only the sockets authenticated with it close; invalid realtime.events payloads are ignored', async () => {
    const w = world();
    const handler = eventsConsumer({ hub: w.hub, membership: w.membership, users: w.directory, logger: createSilentLogger(), maxAttempts: 3 });
    const withToken = new RecordingSocket();
    const withSession = new RecordingSocket();
    w.hub.open(withToken, { session: session('u', { sessionId: 'pat-session', tokenId: 'tok1' }), connectionId: '', sequenceNumber: 0 });
    w.hub.open(withSession, { session: session('u', { sessionId: 'login' }), connectionId: '', sequenceNumber: 0 });
    await handler(message(Topics.usersEvents, envelope('token.revoked', { userId: 'u', tokenIds: ['tok1'], sessionIds: ['pat-session'] })));
    assert.equal(withToken.closedWith, 1008);
    assert.equal(withSession.closedWith, undefined);
    await handler(message(Topics.realtimeEvents, envelope('ephemeral.post', { user_id: 'u', post: { id: 'x' } })));
    assert.equal(withSession.events('ephemeral_message').length, 0);
    w.directory.addUser(user('u', 'uname', { deleteAt: 5 }));
    await handler(message(Topics.usersEvents, envelope('user.deactivated', { userId: 'u' })));
    assert.equal(withSession.closedWith, 1008);
  });

  it('when a lookup fails before anything was delivered, then the message is retried; after the last attempt it is dropped', async () => {
    const w = world();
    const failing = { channelMemberIds: async () => Promise.reject(new Error('posts down')), isTeamMember: async () => false };
    const membership = new MembershipCache({ source: failing, clock: w.clock, ttlMs: 1, maxChannels: 1, maxTeamEntries: 1 });
    const hub = new Hub({ membership, clock: w.clock, limits: { sendQueue: 4, replayBuffer: 4 }, reconnectWindowMs: 1, defaultServerVersion: 'v' });
    hub.open(new RecordingSocket(), { session: session('u'), connectionId: '', sequenceNumber: 0 });
    const handler = eventsConsumer({ hub, membership, users: w.directory, logger: createSilentLogger(), maxAttempts: 2 });
    const typing = envelope('typing', { channel_id: 'c', user_id: 'x', parent_id: '' });
    await assert.rejects(handler(message(Topics.realtimeEvents, typing, 1)));
    await handler(message(Topics.realtimeEvents, typing, 2));
  });

  it('when nobody is connected, then a post costs no lookups, yet a membership change still evicts the cache for whoever connects next', async () => {
    const w = world();
    const handler = eventsConsumer({ hub: w.hub, membership: w.membership, users: w.directory, logger: createSilentLogger(), maxAttempts: 3 });
    w.directory.addChannelMember('g1', 'a');
    const group = { id: 'g1', team_id: '', team_name: '', type: 'G', name: 'g', display_name: 'G', creator_id: 'a', delete_at: 0 };
    const post = { id: 'p1', create_at: 1, update_at: 1, edit_at: 0, delete_at: 0, is_pinned: false, user_id: 'a', channel_id: 'g1', root_id: '', original_id: '', message: 'hi', type: '', props: {}, hashtags: '', file_ids: [], pending_post_id: '', reply_count: 0, last_reply_at: 0, participants: null };
    const created = envelope('post.created', { post, channel: group, team: null, author: { id: 'a', username: 'a', is_bot: false }, source: 'api', from_webhook: false, is_system: false });
    await handler(message(Topics.postsEvents, created));
    assert.equal(w.directory.memberLookups, 0, 'a GM post looks up its members only to name the channel for receivers');
    await w.membership.channelMembers('g1');
    w.directory.addChannelMember('g1', 'b');
    await handler(message(Topics.channelsEvents, envelope('channel.member_added', { channel: group, user_id: 'b', actor_id: 'a' })));
    const b = new RecordingSocket();
    w.hub.open(b, { session: session('b'), connectionId: '', sequenceNumber: 0 });
    await handler(message(Topics.postsEvents, created));
    assert.deepEqual(b.events().map((f) => f.event), ['hello', 'status_change', 'posted']);
  });
});

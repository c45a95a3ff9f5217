import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RecordingSocket, session, world } from '../test-support/fakes';
import { broadcast } from './ws-event';

describe('Hub', () => {
  it('when a socket opens authenticated, then hello (seq 0) then status_change online; a second socket of the same user gets no status_change', () => {
    const { hub } = world();
    const a = new RecordingSocket();
    const conn = hub.open(a, { session: session('u1'), connectionId: '', sequenceNumber: 0, serverVersion: '10.0.0.b.h.false' });
    const [hello, status] = a.frames();
    assert.equal(hello?.event, 'hello');
    assert.equal(hello?.seq, 0);
    assert.deepEqual(hello?.data, { connection_id: conn.id, server_hostname: (hello?.data as { server_hostname: string }).server_hostname, server_version: '10.0.0.b.h.false' });
    assert.equal(status?.event, 'status_change');
    assert.deepEqual(status?.data, { status: 'online', user_id: 'u1' });
    const b = new RecordingSocket();
    hub.open(b, { session: session('u1'), connectionId: '', sequenceNumber: 0 });
    assert.deepEqual(b.events().map((f) => f.event), ['hello']);
  });

  it('when a user gets a first live socket and loses the last (closed, reconnected, revoked), then the presence store is told each change once', async () => {
    const { hub, presence } = world();
    const told: [string, boolean][] = [];
    const set = presence.set.bind(presence);
    presence.set = (userId, online) => {
      told.push([userId, online]);
      set(userId, online);
    };
    const a = new RecordingSocket();
    const first = hub.open(a, { session: session('u1'), connectionId: '', sequenceNumber: 0 });
    const b = new RecordingSocket();
    const second = hub.open(b, { session: session('u1'), connectionId: '', sequenceNumber: 0 });
    hub.socketClosed(first, a);
    assert.deepEqual(told, [['u1', true]]);
    hub.socketClosed(second, b);
    assert.deepEqual(told, [['u1', true], ['u1', false]]);
    assert.deepEqual(await presence.onlineUsers(), []);
    const again = new RecordingSocket();
    hub.open(again, { session: session('u1'), connectionId: second.id, sequenceNumber: 1 });
    assert.deepEqual(told.at(-1), ['u1', true], 'a resumed connection is online again');
    hub.closeWhere((conn) => conn.userId === 'u1', 1008);
    assert.deepEqual(told.at(-1), ['u1', false]);
    assert.equal(told.length, 4);
  });

  it('when an unauthenticated socket opens, then nothing is sent and it receives no events', async () => {
    const { hub, directory } = world();
    directory.addChannelMember('c1', 'u1');
    const socket = new RecordingSocket();
    hub.open(socket, { connectionId: '', sequenceNumber: 0 });
    assert.equal(await hub.deliver({ event: 'posted', data: {}, broadcast: broadcast({ channel_id: 'c1' }) }), 0);
    assert.equal(await hub.deliver({ event: 'new_user', data: {}, broadcast: broadcast() }), 0);
    assert.deepEqual(socket.sent, []);
  });

  it('when a channel event is delivered, then only members get it, minus omit_users', async () => {
    const { hub, directory } = world();
    directory.addChannelMember('c1', 'member');
    directory.addChannelMember('c1', 'omitted');
    const sockets = Object.fromEntries(['member', 'omitted', 'outsider'].map((u) => [u, new RecordingSocket()]));
    for (const [u, s] of Object.entries(sockets)) hub.open(s, { session: session(u), connectionId: '', sequenceNumber: 0 });
    const delivered = await hub.deliver({ event: 'typing', data: { user_id: 'omitted' }, broadcast: broadcast({ channel_id: 'c1', omit_users: { omitted: true } }) });
    assert.equal(delivered, 1);
    assert.equal(sockets.member?.events('typing').length, 1);
    assert.equal(sockets.omitted?.events('typing').length, 0);
    assert.equal(sockets.outsider?.events('typing').length, 0);
  });

  it('when an event names a user, then only that user gets it, member or not; a connection id narrows it to one socket', async () => {
    const { hub } = world();
    const mine1 = new RecordingSocket();
    const mine2 = new RecordingSocket();
    const other = new RecordingSocket();
    const c1 = hub.open(mine1, { session: session('me'), connectionId: '', sequenceNumber: 0 });
    hub.open(mine2, { session: session('me'), connectionId: '', sequenceNumber: 0 });
    hub.open(other, { session: session('you'), connectionId: '', sequenceNumber: 0 });
    await hub.deliver({ event: 'ephemeral_message', data: {}, broadcast: broadcast({ user_id: 'me', channel_id: 'not-a-member-channel' }) });
    assert.equal(mine1.events('ephemeral_message').length, 1);
    assert.equal(mine2.events('ephemeral_message').length, 1);
    assert.equal(other.events('ephemeral_message').length, 0);
    await hub.deliver({ event: 'x', data: {}, broadcast: broadcast({ connection_id: c1.id }) });
    assert.equal(mine1.events('x').length, 1);
    assert.equal(mine2.events('x').length, 0);
  });

  it('when a team event is delivered, then only team members get it', async () => {
    const { hub, directory } = world();
    directory.addTeamMember('t1', 'in');
    const inside = new RecordingSocket();
    const outside = new RecordingSocket();
    hub.open(inside, { session: session('in'), connectionId: '', sequenceNumber: 0 });
    hub.open(outside, { session: session('out'), connectionId: '', sequenceNumber: 0 });
    await hub.deliver({ event: 'channel_deleted', data: {}, broadcast: broadcast({ team_id: 't1' }) });
    assert.equal(inside.events('channel_deleted').length, 1);
    assert.equal(outside.events('channel_deleted').length, 0);
  });

  it('when an event has sanitised and sensitive copies, then admins get only the sensitive one and others only the sanitised one', async () => {
    const { hub } = world();
    const admin = new RecordingSocket();
    const userSocket = new RecordingSocket();
    hub.open(admin, { session: session('a', { roles: 'system_user system_admin' }), connectionId: '', sequenceNumber: 0 });
    hub.open(userSocket, { session: session('u'), connectionId: '', sequenceNumber: 0 });
    await hub.deliver({ event: 'post_deleted', data: { v: 'sanitised' }, broadcast: broadcast({ contains_sanitized_data: true }) });
    await hub.deliver({ event: 'post_deleted', data: { v: 'sensitive' }, broadcast: broadcast({ contains_sensitive_data: true }) });
    assert.deepEqual(admin.events('post_deleted').map((f) => (f.data as { v: string }).v), ['sensitive']);
    assert.deepEqual(userSocket.events('post_deleted').map((f) => (f.data as { v: string }).v), ['sanitised']);
  });

  it('when per-user data is added, then only that receiver sees it and data keys stay sorted', async () => {
    const { hub } = world();
    const a = new RecordingSocket();
    const b = new RecordingSocket();
    hub.open(a, { session: session('a'), connectionId: '', sequenceNumber: 0 });
    hub.open(b, { session: session('b'), connectionId: '', sequenceNumber: 0 });
    await hub.deliver({ event: 'posted', data: { z: 1, a: 2 }, broadcast: broadcast(), dataFor: (u) => (u === 'b' ? { mentions: '["b"]' } : undefined) });
    assert.deepEqual(Object.keys(a.events('posted')[0]?.data as object), ['a', 'z']);
    assert.deepEqual(Object.keys(b.events('posted')[0]?.data as object), ['a', 'mentions', 'z']);
  });

  it('when a client reconnects with its connection id and the next sequence number, then no hello and the missed events are replayed', async () => {
    const { hub } = world();
    const first = new RecordingSocket();
    const conn = hub.open(first, { session: session('u'), connectionId: '', sequenceNumber: 0 });
    await hub.deliver({ event: 'e1', data: {}, broadcast: broadcast({ user_id: 'u' }) });
    const next = (first.frames().at(-1)?.seq as number) + 1;
    hub.socketClosed(conn, first);
    await hub.deliver({ event: 'e2', data: {}, broadcast: broadcast({ user_id: 'u' }) });
    const second = new RecordingSocket();
    const resumed = hub.open(second, { session: session('u'), connectionId: conn.id, sequenceNumber: next });
    assert.equal(resumed, conn);
    assert.deepEqual(second.frames().map((f) => [f.event, f.seq]), [['e2', next]]);
  });

  it('when a reconnect names the connection of another user or an unknown one, then a fresh connection with hello', () => {
    const { hub } = world();
    const first = new RecordingSocket();
    const conn = hub.open(first, { session: session('u'), connectionId: '', sequenceNumber: 0 });
    hub.socketClosed(conn, first);
    const thief = new RecordingSocket();
    const other = hub.open(thief, { session: session('thief'), connectionId: conn.id, sequenceNumber: 0 });
    assert.notEqual(other.id, conn.id);
    assert.equal(thief.frames()[0]?.event, 'hello');
    const unknown = new RecordingSocket();
    const fresh = hub.open(unknown, { session: session('u'), connectionId: 'x'.repeat(26), sequenceNumber: 3 });
    assert.notEqual(fresh.id, 'x'.repeat(26));
    assert.equal(unknown.frames()[0]?.event, 'hello');
    assert.equal(unknown.frames()[0]?.seq, 0);
  });

  it('when a session is revoked, then its sockets are closed and the connection cannot be resumed', () => {
    const { hub } = world();
    const socket = new RecordingSocket();
    const conn = hub.open(socket, { session: session('u', { sessionId: 's1' }), connectionId: '', sequenceNumber: 0 });
    const keep = new RecordingSocket();
    hub.open(keep, { session: session('u', { sessionId: 's2' }), connectionId: '', sequenceNumber: 0 });
    assert.equal(hub.closeWhere((c) => c.session?.sessionId === 's1', 1008), 1);
    assert.equal(socket.closedWith, 1008);
    assert.equal(keep.closedWith, undefined);
    assert.equal(hub.get(conn.id), undefined);
  });

  it('when away connections outlive the reconnect window or sessions expire, then the sweep drops or closes them', () => {
    const { hub, clock } = world();
    const away = new RecordingSocket();
    const conn = hub.open(away, { session: session('u'), connectionId: '', sequenceNumber: 0 });
    hub.socketClosed(conn, away);
    const expiring = new RecordingSocket();
    hub.open(expiring, { session: session('v', { expiresAt: clock.time + 1_000 }), connectionId: '', sequenceNumber: 0 });
    clock.time += 2_000;
    assert.equal(hub.closeExpired(), 1);
    assert.equal(expiring.closedWith, 1000);
    assert.equal(hub.reap(), 0);
    clock.time += 300_001;
    assert.equal(hub.reap(), 1);
    assert.equal(hub.size, 0);
  });
});

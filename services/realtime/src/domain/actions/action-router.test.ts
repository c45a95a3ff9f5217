import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RecordingSocket, world, type World } from '../../test-support/fakes';
import type { Connection } from '../connection';
import { handleFrame, type ActionDeps } from './action-router';

const CHANNEL = 'c'.repeat(26);

function setup(): { w: World; deps: ActionDeps; typed: string[][]; socket: RecordingSocket; conn: Connection } {
  const w = world();
  const typed: string[][] = [];
  w.directory.addSession('good-token', { userId: 'u1', sessionId: 's1', roles: 'system_user', isBot: false, sessionType: 'session', csrfToken: '', expiresAt: 0 });
  w.directory.addChannelMember(CHANNEL, 'u1');
  const deps: ActionDeps = {
    hub: w.hub,
    sessions: w.directory,
    membership: w.membership,
    typing: { typing: async (c, u, p) => void typed.push([c, u, p]) },
    clock: w.clock,
    currentVersion: '10.0.0',
    onAuthenticated: () => undefined,
  };
  const socket = new RecordingSocket();
  const conn = w.hub.open(socket, { connectionId: '', sequenceNumber: 0 });
  return { w, deps, typed, socket, conn };
}

describe('client frames', () => {
  it('when an unauthenticated socket sends actions, then no reply; a good challenge queues hello before the OK reply', async () => {
    const { deps, socket, conn } = setup();
    assert.equal(await handleFrame(deps, conn, { seq: 1, action: 'ping' }, 'v'), 'ok');
    assert.equal(await handleFrame(deps, conn, { seq: 0, action: '' }, 'v'), 'ok');
    assert.deepEqual(socket.sent, []);
    assert.equal(await handleFrame(deps, conn, { seq: 2, action: 'authentication_challenge', data: { token: 'good-token' } }, '10.0.0.x.y.false'), 'ok');
    const frames = socket.frames();
    assert.equal(frames[0]?.event, 'hello');
    assert.equal((frames[0]?.data as { server_version: string }).server_version, '10.0.0.x.y.false');
    assert.deepEqual(frames.at(-1), { status: 'OK', seq_reply: 2 });
  });

  it('when a challenge replays a token that has been revoked since, then the socket is to be closed and gets no hello', async () => {
    const { w, deps, conn } = setup();
    assert.equal(await handleFrame(deps, conn, { seq: 1, action: 'authentication_challenge', data: { token: 'good-token' } }, 'v'), 'ok');
    assert.equal(conn.authenticated, true);
    w.directory.revoke('good-token');
    const replay = new RecordingSocket();
    const second = w.hub.open(replay, { connectionId: '', sequenceNumber: 0 });
    assert.equal(await handleFrame(deps, second, { seq: 1, action: 'authentication_challenge', data: { token: 'good-token' } }, 'v'), 'close');
    assert.equal(second.authenticated, false);
    assert.deepEqual(replay.sent, []);
  });

  it('when a challenge has a bad, missing or non-string token, then the socket is to be closed', async () => {
    const { deps, conn } = setup();
    assert.equal(await handleFrame(deps, conn, { seq: 1, action: 'authentication_challenge', data: { token: 'nope' } }, 'v'), 'close');
    assert.equal(await handleFrame(deps, conn, { seq: 1, action: 'authentication_challenge', data: { token: 5 } }, 'v'), 'close');
    assert.equal(await handleFrame(deps, conn, { seq: 1, action: 'authentication_challenge' }, 'v'), 'close');
  });

  it('when an authenticated socket sends bad frames, then the router errors of the reference', async () => {
    const { deps, socket, conn } = setup();
    await handleFrame(deps, conn, { seq: 1, action: 'authentication_challenge', data: { token: 'good-token' } }, 'v');
    socket.sent.length = 0;
    await handleFrame(deps, conn, { seq: 2 }, 'v');
    await handleFrame(deps, conn, { seq: -1, action: 'ping' }, 'v');
    await handleFrame(deps, conn, { seq: 3, action: 'bogus' }, 'v');
    await handleFrame(deps, conn, { seq: 4, action: 'authentication_challenge', data: { token: 'good-token' } }, 'v');
    await handleFrame(deps, conn, { seq: 5, action: 'custom_plugin_thing' }, 'v');
    const errors = socket.frames().map((f) => [(f.error as { id: string; status_code: number }).id, (f.error as { status_code: number }).status_code]);
    assert.deepEqual(errors, [
      ['api.web_socket_router.no_action.app_error', 400],
      ['api.web_socket_router.bad_seq.app_error', 400],
      ['api.web_socket_router.bad_action.app_error', 500],
    ]);
  });

  it('when user_typing names a channel of the user, then typing is published; another channel or a bad id is invalid_param', async () => {
    const { deps, socket, conn, typed } = setup();
    await handleFrame(deps, conn, { seq: 1, action: 'authentication_challenge', data: { token: 'good-token' } }, 'v');
    await handleFrame(deps, conn, { seq: 2, action: 'user_typing', data: { channel_id: CHANNEL, parent_id: 'p' } }, 'v');
    await handleFrame(deps, conn, { seq: 3, action: 'user_typing', data: { channel_id: 'd'.repeat(26) } }, 'v');
    await handleFrame(deps, conn, { seq: 4, action: 'user_typing', data: { channel_id: 'short' } }, 'v');
    assert.deepEqual(typed, [[CHANNEL, 'u1', 'p']]);
    const replies = socket.frames().filter((f) => typeof f.seq_reply === 'number' && (f.seq_reply as number) >= 2);
    assert.deepEqual(replies.map((f) => f.status), ['OK', 'FAIL', 'FAIL']);
    assert.equal((replies[1]?.error as { message: string }).message, 'Invalid channel_id parameter.');
  });

  it('when statuses are asked, then online users of this replica; unknown ids offline; an empty list is invalid', async () => {
    const { deps, socket, conn } = setup();
    await handleFrame(deps, conn, { seq: 1, action: 'authentication_challenge', data: { token: 'good-token' } }, 'v');
    await handleFrame(deps, conn, { seq: 2, action: 'get_statuses' }, 'v');
    await handleFrame(deps, conn, { seq: 3, action: 'get_statuses_by_ids', data: { user_ids: ['u1', 'zz'] } }, 'v');
    await handleFrame(deps, conn, { seq: 4, action: 'get_statuses_by_ids', data: { user_ids: [] } }, 'v');
    await handleFrame(deps, conn, { seq: 5, action: 'user_update_active_status', data: { user_is_active: 'yes' } }, 'v');
    const byReply = new Map(socket.frames().map((f) => [f.seq_reply, f]));
    assert.deepEqual(byReply.get(2)?.data, { u1: 'online' });
    assert.deepEqual(byReply.get(3)?.data, { u1: 'online', zz: 'offline' });
    assert.equal(byReply.get(4)?.status, 'FAIL');
    assert.equal(byReply.get(5)?.status, 'FAIL');
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RecordingSocket, ROUTER_CHANNEL, routerWorld } from '../../test-support/fakes';
import { handleFrame } from './action-router';

const CHANNEL = ROUTER_CHANNEL;
const setup = routerWorld;

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

  it('when statuses are asked, then online users of every replica; unknown ids offline; an empty list is invalid', async () => {
    const { w, deps, socket, conn } = setup();
    await handleFrame(deps, conn, { seq: 1, action: 'authentication_challenge', data: { token: 'good-token' } }, 'v');
    // u2 is connected to another replica only.
    const other = w.presence.board.replica('other');
    other.set('u2', true);
    await handleFrame(deps, conn, { seq: 2, action: 'get_statuses' }, 'v');
    await handleFrame(deps, conn, { seq: 3, action: 'get_statuses_by_ids', data: { user_ids: ['u1', 'u2', 'zz'] } }, 'v');
    await handleFrame(deps, conn, { seq: 4, action: 'get_statuses_by_ids', data: { user_ids: [] } }, 'v');
    await handleFrame(deps, conn, { seq: 5, action: 'user_update_active_status', data: { user_is_active: 'yes' } }, 'v');
    const byReply = new Map(socket.frames().map((f) => [f.seq_reply, f]));
    assert.deepEqual(byReply.get(2)?.data, { u1: 'online', u2: 'online' });
    assert.deepEqual(byReply.get(3)?.data, { u1: 'online', u2: 'online', zz: 'offline' });
    assert.equal(byReply.get(4)?.status, 'FAIL');
    assert.equal(byReply.get(5)?.status, 'FAIL');
  });

  it('when the presence store fails, then statuses answer server_busy instead of a partial map', async () => {
    const { deps, socket, conn } = setup();
    await handleFrame(deps, conn, { seq: 1, action: 'authentication_challenge', data: { token: 'good-token' } }, 'v');
    const down = async (): Promise<never> => {
      throw new Error('redis down');
    };
    const broken = { ...deps, presence: { onlineAmong: down, onlineUsers: down } };
    await handleFrame(broken, conn, { seq: 2, action: 'get_statuses_by_ids', data: { user_ids: ['u1'] } }, 'v');
    const reply = socket.frames().find((f) => f.seq_reply === 2);
    assert.equal((reply?.error as { id: string }).id, 'api.websocket_handler.server_busy.app_error');
  });
});

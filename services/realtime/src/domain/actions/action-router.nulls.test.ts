import assert from 'node:assert/strict';
import { it } from 'node:test';
import { ROUTER_CHANNEL as CHANNEL, routerWorld } from '../../test-support/fakes';
import { handleFrame } from './action-router';
const INVALID = 'api.websocket_handler.invalid_param.app_error';

/**
 * JSON null in a client frame means "not set", as when the reference decodes `{seq, action, data}` into its
 * Go WebSocketRequest (seq int64, action string, data map) and reads data values with type assertions: a
 * null seq is 0 (bad_seq), a null action "" (no_action), null data an empty map, and a null parameter
 * fails its assertion (invalid_param), except an optional one (parent_id: "").
 */
it('when a frame carries null fields, then each is answered as if the field were absent', async () => {
  const { deps, socket, conn, typed } = routerWorld();
  // A null token is a failed challenge: the socket is closed.
  assert.equal(await handleFrame(deps, conn, { seq: 1, action: 'authentication_challenge', data: { token: null } }, 'v'), 'close');
  assert.equal(await handleFrame(deps, conn, { seq: 1, action: 'authentication_challenge', data: null }, 'v'), 'close');
  assert.equal(await handleFrame(deps, conn, { seq: 1, action: 'authentication_challenge', data: { token: 'good-token' } }, 'v'), 'ok');
  socket.sent.length = 0;

  const cases: [Record<string, unknown>, string][] = [
    [{ seq: 2, action: null }, 'api.web_socket_router.no_action.app_error'],
    [{ seq: null, action: 'ping' }, 'api.web_socket_router.bad_seq.app_error'],
    [{ seq: 3, action: 'ping', data: null }, 'OK'],
    [{ seq: 4, action: 'user_typing', data: { channel_id: null } }, INVALID],
    [{ seq: 5, action: 'user_typing', data: { channel_id: CHANNEL, parent_id: null } }, 'OK'],
    [{ seq: 6, action: 'get_statuses_by_ids', data: { user_ids: null } }, INVALID],
    [{ seq: 7, action: 'get_statuses_by_ids', data: null }, INVALID],
    [{ seq: 8, action: 'user_update_active_status', data: { user_is_active: null } }, INVALID],
    [{ seq: 9, action: 'get_statuses', data: null }, 'OK'],
  ];
  for (const [frame, expected] of cases) {
    socket.sent.length = 0;
    assert.equal(await handleFrame(deps, conn, frame, 'v'), 'ok', JSON.stringify(frame));
    const [answer] = socket.frames();
    const got = answer?.status === 'OK' ? 'OK' : (answer?.error as { id: string } | undefined)?.id;
    assert.equal(got, expected, JSON.stringify(frame));
  }
  assert.deepEqual(typed, [[CHANNEL, 'u1', '']]);
});

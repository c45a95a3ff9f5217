import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newClient } from './support/client';
import { eventually } from './support/eventually';
import { patchConfig } from './support/fixtures';
import { assertAppError, assertJson, raw } from './support/http';
import { outsider } from './support/posts-fixtures';
import { wsWorld, type WsWorld } from './support/ws-world';

const statusOf = async (world: WsWorld, token: string, userId: string): Promise<Record<string, unknown>> => {
  const response = await raw(world.target.url, 'GET', `/api/v4/users/${userId}/status`, { token });
  assertJson(response, 200);
  return response.json as Record<string, unknown>;
};

describe('statuses', { timeout: 300_000 }, () => {
  let world: WsWorld;

  before(async () => {
    world = await wsWorld();
  });
  after(async () => {
    await world?.stop();
  });

  it('when a user never connected, then GET /users/{id}/status is offline, automatic; unknown ids too (no existence check)', async () => {
    const carol = await outsider(world.target.url, world.admin, 'st');
    assert.deepEqual(await statusOf(world, world.alice.token, carol.id), { user_id: carol.id, status: 'offline', manual: false, last_activity_at: 0, dnd_end_time: 0 });
    const unknown = 'a'.repeat(26);
    assert.equal((await statusOf(world, world.alice.token, unknown)).status, 'offline');
    assertAppError(await raw(world.target.url, 'GET', '/api/v4/users/not-an-id/status', { token: world.alice.token }), 400, 'api.context.invalid_url_param.app_error');
    assertAppError(await raw(world.target.url, 'GET', `/api/v4/users/${carol.id}/status`), 401, 'api.context.session_expired.app_error');
  });

  it('when a user connects a socket, then online with a last activity; when the socket closes, then offline again', async () => {
    const dave = await outsider(world.target.url, world.admin, 'sd');
    const socket = await world.open(dave.token);
    const online = await eventually('online after connecting', async () => {
      const status = await statusOf(world, world.alice.token, dave.id);
      return status.status === 'online' && (status.last_activity_at as number) > 0 ? status : undefined;
    });
    assert.equal(online.manual, false);
    socket.close();
    await eventually('offline after the socket closed', async () => ((await statusOf(world, world.alice.token, dave.id)).status === 'offline' ? true : undefined));
  });

  it('when a user sets dnd, away, offline, then they are manual and visible to others; online is automatic again', async () => {
    const { alice, bob } = world;
    const client = newClient(world.target.url, alice.token);
    const dnd = await client.updateStatus({ user_id: alice.id, status: 'dnd', dnd_end_time: 0 } as never);
    assert.equal(dnd.status, 'dnd');
    assert.equal(dnd.manual, true);
    assert.equal((await statusOf(world, bob.token, alice.id)).status, 'dnd');
    for (const status of ['away', 'offline'] as const) {
      const response = await raw(world.target.url, 'PUT', `/api/v4/users/me/status`, { token: alice.token, body: { user_id: alice.id, status } });
      assertJson(response, 200);
      assert.deepEqual([response.json.status, response.json.manual], [status, true]);
    }
    const online = await raw(world.target.url, 'PUT', `/api/v4/users/${alice.id}/status`, { token: alice.token, body: { user_id: alice.id, status: 'online' } });
    assertJson(online, 200);
    assert.deepEqual([online.json.status, online.json.manual], ['online', false]);
    assert.equal((await statusOf(world, bob.token, alice.id)).status, 'online', 'a REST-set online stands without a socket, as the reference');
  });

  it('when a manual status is set, then a socket connecting keeps it', async () => {
    const erin = await outsider(world.target.url, world.admin, 'se');
    await raw(world.target.url, 'PUT', `/api/v4/users/${erin.id}/status`, { token: erin.token, body: { user_id: erin.id, status: 'dnd' } });
    const socket = await world.open(erin.token);
    await socket.request('user_update_active_status', { user_is_active: true, manual: false });
    const status = await statusOf(world, erin.token, erin.id);
    assert.deepEqual([status.status, status.manual], ['dnd', true]);
  });

  it('when statuses are asked for over the WebSocket, then they match the REST answer (manual ones included)', async () => {
    const frank = await outsider(world.target.url, world.admin, 'sf');
    await raw(world.target.url, 'PUT', `/api/v4/users/${frank.id}/status`, { token: frank.token, body: { user_id: frank.id, status: 'dnd' } });
    const socket = await world.open(world.bob.token);
    const reply = await socket.request('get_statuses_by_ids', { user_ids: [frank.id, world.bob.id] });
    assert.equal(reply.status, 'OK');
    assert.deepEqual(reply.data, { [frank.id]: 'dnd', [world.bob.id]: (await statusOf(world, world.bob.token, world.bob.id)).status });
  });

  it('when a status changes, then status_change reaches only that user\'s sockets', async () => {
    const { alice, bob } = world;
    const aliceSocket = await world.open(alice.token);
    const bobSocket = await world.open(bob.token);
    await raw(world.target.url, 'PUT', `/api/v4/users/${alice.id}/status`, { token: alice.token, body: { user_id: alice.id, status: 'online' } });
    const put = await raw(world.target.url, 'PUT', `/api/v4/users/${alice.id}/status`, { token: alice.token, body: { user_id: alice.id, status: 'away' } });
    assertJson(put, 200);
    const event = await aliceSocket.event('status_change', (f) => f.data?.status === 'away');
    assert.deepEqual(event.data, { status: 'away', user_id: alice.id });
    assert.equal(event.broadcast?.user_id, alice.id);
    // bob's own marker event proves his socket is caught up; he never got alice's change.
    await raw(world.target.url, 'PUT', `/api/v4/users/${bob.id}/status`, { token: bob.token, body: { user_id: bob.id, status: 'dnd' } });
    await bobSocket.event('status_change', (f) => f.data?.user_id === bob.id && f.data?.status === 'dnd');
    assert.equal(bobSocket.events().some((f) => f.event === 'status_change' && f.data?.user_id === alice.id), false);
    await raw(world.target.url, 'PUT', `/api/v4/users/${bob.id}/status`, { token: bob.token, body: { user_id: bob.id, status: 'online' } });
  });

  it('when POST /users/status/ids is called, then one status per id; bad bodies are 400 user_ids', async () => {
    const { alice, bob } = world;
    const unknown = 'b'.repeat(26);
    const response = await raw(world.target.url, 'POST', '/api/v4/users/status/ids', { token: bob.token, body: [alice.id, bob.id, unknown] });
    assertJson(response, 200);
    const list = response.json as { user_id: string; status: string }[];
    assert.deepEqual(list.map((s) => s.user_id).sort(), [alice.id, bob.id, unknown].sort());
    assert.equal(list.find((s) => s.user_id === unknown)?.status, 'offline');
    const viaClient = await newClient(world.target.url, bob.token).getStatusesByIds([alice.id]);
    assert.equal(viaClient[0]?.user_id, alice.id);
    for (const body of [[], ['short'], [alice.id, 42], { ids: [alice.id] }, 'x']) {
      assertAppError(await raw(world.target.url, 'POST', '/api/v4/users/status/ids', { token: bob.token, body }), 400, 'api.context.invalid_body_param.app_error');
    }
  });

  it('when a PUT is for someone else, names another user, or an unknown status, then 403 or 400; an admin may set others', async () => {
    const { alice, bob, admin } = world;
    assertAppError(await raw(world.target.url, 'PUT', `/api/v4/users/${alice.id}/status`, { token: bob.token, body: { user_id: alice.id, status: 'away' } }), 403, 'api.context.permissions.app_error');
    assertAppError(await raw(world.target.url, 'PUT', `/api/v4/users/${bob.id}/status`, { token: bob.token, body: { user_id: alice.id, status: 'away' } }), 400, 'api.context.invalid_body_param.app_error');
    assertAppError(await raw(world.target.url, 'PUT', `/api/v4/users/${bob.id}/status`, { token: bob.token, body: { status: 'away' } }), 400, 'api.context.invalid_body_param.app_error');
    for (const status of ['ooo', 'busy', '', 7, { $ne: 'x' }]) {
      assertAppError(await raw(world.target.url, 'PUT', `/api/v4/users/${bob.id}/status`, { token: bob.token, body: { user_id: bob.id, status } }), 400, 'api.context.invalid_body_param.app_error');
    }
    assert.equal((await statusOf(world, alice.token, alice.id)).status !== 'dnd', true);
    const byAdmin = await raw(world.target.url, 'PUT', `/api/v4/users/${alice.id}/status`, { token: admin.token, body: { user_id: alice.id, status: 'dnd' } });
    assertJson(byAdmin, 200);
    assert.equal((await statusOf(world, bob.token, alice.id)).status, 'dnd');
    await raw(world.target.url, 'PUT', `/api/v4/users/${alice.id}/status`, { token: alice.token, body: { user_id: alice.id, status: 'online' } });
  });

  it('when EnableUserStatuses is off, then GET and PUT answer 404 and the ids list is empty', async () => {
    const { alice, admin } = world;
    await patchConfig(admin.client, { ServiceSettings: { EnableUserStatuses: false } });
    try {
      await eventually('statuses disabled', async () => ((await raw(world.target.url, 'GET', `/api/v4/users/${alice.id}/status`, { token: alice.token })).status === 404 ? true : undefined));
      assertAppError(await raw(world.target.url, 'GET', `/api/v4/users/${alice.id}/status`, { token: alice.token }), 404, 'api.status.user_not_found.app_error');
      assertAppError(await raw(world.target.url, 'PUT', `/api/v4/users/${alice.id}/status`, { token: alice.token, body: { user_id: alice.id, status: 'away' } }), 404, 'api.status.user_not_found.app_error');
      const ids = await raw(world.target.url, 'POST', '/api/v4/users/status/ids', { token: alice.token, body: [alice.id] });
      assertJson(ids, 200);
      assert.deepEqual(ids.json, []);
    } finally {
      await patchConfig(admin.client, { ServiceSettings: { EnableUserStatuses: true } });
    }
    await eventually('statuses enabled again', async () => ((await raw(world.target.url, 'GET', `/api/v4/users/${alice.id}/status`, { token: alice.token })).status === 200 ? true : undefined));
  });
});

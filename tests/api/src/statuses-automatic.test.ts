import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually } from './support/eventually';
import { patchConfig } from './support/fixtures';
import { assertJson, raw } from './support/http';
import { newChannel, postIn, teamMember } from './support/posts-fixtures';
import { wsWorld, type WsWorld } from './support/ws-world';

/** Automatic status changes (mattermost-wire-3.md §3.1): REST posts, idling into away, the hello-time status_change. */
describe('automatic statuses', { timeout: 300_000 }, () => {
  let world: WsWorld;

  const statusOf = async (token: string, userId: string): Promise<Record<string, unknown>> => {
    const response = await raw(world.target.url, 'GET', `/api/v4/users/${userId}/status`, { token });
    assertJson(response, 200);
    return response.json as Record<string, unknown>;
  };
  const put = (token: string, userId: string, status: string) => raw(world.target.url, 'PUT', `/api/v4/users/${userId}/status`, { token, body: { user_id: userId, status } });

  before(async () => {
    world = await wsWorld();
  });
  after(async () => {
    await world?.stop();
  });

  it('when a user without a socket posts through REST, then they go online and stay online; a manual status stays', async () => {
    const rest = await teamMember(world.target.url, world.admin, world.team, 'sr');
    const channel = await newChannel(rest, world.team);
    assert.equal((await statusOf(world.alice.token, rest.id)).status, 'offline');
    await postIn(rest, channel.id, 'a REST post');
    const online = await eventually('online after a REST post', async () => {
      const status = await statusOf(world.alice.token, rest.id);
      return status.status === 'online' ? status : undefined;
    });
    assert.equal(online.manual, false);
    assert.ok((online.last_activity_at as number) > 0);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    assert.equal((await statusOf(world.alice.token, rest.id)).status, 'online', 'no socket to close: a REST-only user never goes offline');

    const busy = await teamMember(world.target.url, world.admin, world.team, 'sb');
    await busy.client.addToChannel(busy.id, channel.id);
    assertJson(await put(busy.token, busy.id, 'dnd'), 200);
    const marker = await postIn(busy, channel.id, 'posting while dnd');
    // The author's status is settled once a later post by someone else is seen by the same consumer.
    await postIn(rest, channel.id, `after ${marker.id}`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const stays = await statusOf(world.alice.token, busy.id);
    assert.deepEqual([stays.status, stays.manual], ['dnd', true]);
  });

  it('when a connected user idles past UserStatusAwayTimeout, then status_change away reaches them, and activity brings online back', async () => {
    const idle = await teamMember(world.target.url, world.admin, world.team, 'si');
    await patchConfig(world.admin.client, { TeamSettings: { UserStatusAwayTimeout: 2 } } as never);
    try {
      const socket = await world.open(idle.token);
      const away = await socket.event('status_change', (f) => f.data?.status === 'away', 20_000);
      assert.deepEqual(away.data, { status: 'away', user_id: idle.id });
      const read = await statusOf(world.alice.token, idle.id);
      assert.deepEqual([read.status, read.manual], ['away', false]);
      assert.equal(socket.events().filter((f) => f.event === 'status_change' && f.data?.status === 'away').length, 1, 'announced once');
      await socket.request('user_update_active_status', { user_is_active: true, manual: false });
      await socket.event('status_change', (f) => f.data?.status === 'online', 10_000);
    } finally {
      await patchConfig(world.admin.client, { TeamSettings: { UserStatusAwayTimeout: 300 } } as never);
    }
  });

  it('when a user with a manual status connects, then no status_change online is sent after hello; an automatic one gets it', async () => {
    const manual = await teamMember(world.target.url, world.admin, world.team, 'sm');
    assertJson(await put(manual.token, manual.id, 'dnd'), 200);
    const socket = await world.open(manual.token);
    // A marker after the connect: once it arrives, a status_change online would have come before it.
    assertJson(await put(manual.token, manual.id, 'away'), 200);
    await socket.event('status_change', (f) => f.data?.status === 'away');
    assert.equal(socket.events().some((f) => f.event === 'status_change' && f.data?.status === 'online'), false);

    const automatic = await teamMember(world.target.url, world.admin, world.team, 'sn');
    const other = await world.open(automatic.token);
    const online = await other.event('status_change', (f) => f.data?.status === 'online');
    assert.deepEqual(online.data, { status: 'online', user_id: automatic.id });
  });
});

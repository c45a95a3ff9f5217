import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Channel } from '@mattermost/types/channels';
import type { Team } from '@mattermost/types/teams';
import { uniqueName } from './support/fixtures';
import { assertAppError, assertJson, raw } from './support/http';
import { newChannel, teamMember, type Actor } from './support/posts-fixtures';
import { parsed, type TestSocket } from './support/ws';
import { wsWorld, type WsWorld } from './support/ws-world';

const PERMISSIONS = 'api.context.permissions.app_error';

describe('PUT /channels/{id}/patch and channel_updated', { timeout: 300_000 }, () => {
  let world: WsWorld;
  let team: Team;
  let alice: Actor;
  let bob: Actor;
  let carol: Actor;
  const patch = (who: { readonly token: string }, channelId: string, body: unknown) => raw(world.target.url, 'PUT', `/api/v4/channels/${channelId}/patch`, { token: who.token, body });

  before(async () => {
    world = await wsWorld();
    ({ team, alice, bob } = world);
    carol = await teamMember(world.target.url, world.admin, team, 'carol');
  });
  after(async () => {
    await world?.stop();
  });

  it('when a member patches an open channel, then 200 with the Channel, and members (only) get channel_updated with the same Channel JSON', async () => {
    const channel = await newChannel(alice, team);
    await alice.client.addToChannel(bob.id, channel.id);
    const bobWs = await world.open(bob.token);
    const carolWs: TestSocket = await world.open(carol.token);
    const response = await patch(bob, channel.id, { header: 'new header', display_name: 'New Name' });
    assertJson(response, 200);
    const body = response.json as Channel;
    assert.equal(body.header, 'new header');
    assert.equal(body.display_name, 'New Name');
    assert.equal(body.name, channel.name, 'fields not sent are kept');
    assert.equal(body.purpose, channel.purpose);
    assert.ok(body.update_at > channel.update_at);
    const event = await bobWs.event('channel_updated', (f) => parsed(f, 'channel').id === channel.id);
    assert.deepEqual(Object.keys(event.data ?? {}), ['channel']);
    assert.deepEqual(parsed(event, 'channel'), body);
    assert.equal(event.broadcast?.channel_id, channel.id);
    await carolWs.request('ping');
    assert.equal(carolWs.frames.some((f) => f.event === 'channel_updated'), false, 'a team member outside the channel gets nothing');
    const read = await raw(world.target.url, 'GET', `/api/v4/channels/${channel.id}`, { token: alice.token });
    assert.deepEqual(read.json, body);
  });

  it('when someone outside the channel patches it, then 403; a private one needs manage_private_channel_properties too', async () => {
    const open = await newChannel(alice, team);
    assertAppError(await patch(carol, open.id, { header: 'x' }), 403, PERMISSIONS);
    const priv = await newChannel(alice, team, 'P');
    assertAppError(await patch(carol, priv.id, { header: 'x' }), 403, PERMISSIONS);
    assertJson(await patch(alice, priv.id, { purpose: 'ours' }), 200);
  });

  it('when the patch is malformed or invalid, then the reference errors: invalid_body_param channel, name and length rules, town-square, a taken name, an unknown channel', async () => {
    const channel = await newChannel(alice, team);
    const other = await newChannel(alice, team);
    assertAppError(await patch(alice, channel.id, { header: 5 }), 400, 'api.context.invalid_body_param.app_error');
    assertAppError(await patch(alice, channel.id, ['x']), 400, 'api.context.invalid_body_param.app_error');
    assertAppError(await patch(alice, channel.id, { display_name: 'x'.repeat(65) }), 400, 'model.channel.is_valid.display_name.app_error');
    assertAppError(await patch(alice, channel.id, { header: 'h'.repeat(1025) }), 400, 'model.channel.is_valid.header.app_error');
    assertAppError(await patch(alice, channel.id, { purpose: 'p'.repeat(251) }), 400, 'model.channel.is_valid.purpose.app_error');
    assertAppError(await patch(alice, channel.id, { name: 'Not Valid!' }), 400, 'model.channel.is_valid.name.app_error');
    assertAppError(await patch(alice, channel.id, { name: other.name }), 400, 'store.sql_channel.update.exists.app_error');
    const renamed = uniqueName('renamed');
    assert.equal((await patch(alice, channel.id, { name: renamed })).json?.name, renamed);
    const townSquare = await raw(world.target.url, 'GET', `/api/v4/teams/${team.id}/channels/name/town-square`, { token: world.admin.token });
    assertJson(townSquare, 200);
    assertAppError(await patch(world.admin, (townSquare.json as Channel).id, { name: uniqueName('ts') }), 400, 'api.channel.update_channel.tried.app_error');
    assertAppError(await patch(alice, 'x'.repeat(26), { header: 'x' }), 404, /app\.channel\.get/);
    assertAppError(await patch(alice, 'short', { header: 'x' }), 400, 'api.context.invalid_url_param.app_error');
  });

  it('when a DM is patched, then its members may change the header; anyone else gets patch_update_channel.forbidden', async () => {
    const dm = (await raw(world.target.url, 'POST', '/api/v4/channels/direct', { token: alice.token, body: [alice.id, bob.id] })).json as Channel;
    const response = await patch(bob, dm.id, { header: 'dm header' });
    assertJson(response, 200);
    assert.equal((response.json as Channel).header, 'dm header');
    assertAppError(await patch(carol, dm.id, { header: 'intruder' }), 403, 'api.channel.patch_update_channel.forbidden.app_error');
  });
});

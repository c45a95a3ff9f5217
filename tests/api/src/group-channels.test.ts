import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Channel } from '@mattermost/types/channels';
import { assertAppError, assertJson, raw } from './support/http';
import { outsider, postIn, type Actor } from './support/posts-fixtures';
import { wsWorld, type WsWorld } from './support/ws-world';

describe('group channels', { timeout: 300_000 }, () => {
  let world: WsWorld;
  let alice: Actor;
  let bob: Actor;
  let carol: Actor;
  let dave: Actor;

  const group = (actor: Actor, body: unknown) => raw(world.target.url, 'POST', '/api/v4/channels/group', { token: actor.token, body });

  before(async () => {
    world = await wsWorld();
    ({ alice, bob } = world);
    carol = await outsider(world.target.url, world.admin, 'gc');
    dave = await outsider(world.target.url, world.admin, 'gd');
  });
  after(async () => {
    await world?.stop();
  });

  it('when a user creates a group with two others, then 201, type G, no team, the reference name and display name, all three members, and group_added', async () => {
    const socket = await world.open(bob.token);
    const response = await group(alice, [bob.id, carol.id]);
    assertJson(response, 201);
    const channel = response.json as Channel;
    const ids = [alice.id, bob.id, carol.id].sort();
    assert.equal(channel.type, 'G');
    assert.equal(channel.team_id, '');
    assert.equal(channel.name, createHash('sha1').update(ids.join('')).digest('hex'));
    assert.equal(channel.display_name, [alice.username, bob.username, carol.username].sort().join(', '));
    const members = await alice.client.getChannelMembers(channel.id);
    assert.deepEqual(members.map((m) => m.user_id).sort(), ids);
    const event = await socket.event('group_added', (f) => f.broadcast?.channel_id === channel.id);
    assert.deepEqual((JSON.parse(String(event.data?.teammate_ids)) as string[]).sort(), ids);
  });

  it('when the same group is asked for again, in any order, by any member, then the same channel with 201', async () => {
    const first = (await group(alice, [bob.id, dave.id])).json as Channel;
    const again = await group(dave, [bob.id, alice.id, dave.id]);
    assertJson(again, 201);
    assert.equal(again.json.id, first.id);
    const viaClient = await bob.client.createGroupChannel([alice.id, dave.id]);
    assert.equal(viaClient.id, first.id);
  });

  it('when members post in the group, then every member reads it; outsiders cannot', async () => {
    const channel = (await group(alice, [bob.id, carol.id])).json as Channel;
    const post = await postIn(carol, channel.id, 'hello group');
    assert.equal((await bob.client.getPost(post.id)).message, 'hello group');
    assertAppError(await raw(world.target.url, 'GET', `/api/v4/channels/${channel.id}/posts`, { token: dave.token }), 403, 'api.context.permissions.app_error');
    assertAppError(await raw(world.target.url, 'POST', '/api/v4/posts', { token: dave.token, body: { channel_id: channel.id, message: 'intruder' } }), 403, 'api.context.permissions.app_error');
  });

  it('when the size is outside 3 to 8 or a user is unknown or repeated, then the reference\'s 400s', async () => {
    assertAppError(await group(alice, [bob.id]), 400, 'api.channel.create_group.bad_size.app_error');
    assertAppError(await group(alice, [alice.id, bob.id]), 400, 'api.channel.create_group.bad_size.app_error');
    const many = Array.from({ length: 8 }, (_, i) => `${String(i).padStart(2, '0')}${'x'.repeat(24)}`);
    assertAppError(await group(alice, many), 400, 'api.channel.create_group.bad_size.app_error');
    assertAppError(await group(alice, [bob.id, 'z'.repeat(26)]), 400, 'api.channel.create_group.bad_user.app_error');
    assertAppError(await group(alice, [bob.id, bob.id]), 400, 'api.channel.create_group.bad_user.app_error');
  });

  it('when the body is not a list of ids, then 400 user_ids / user_id; without a session 401', async () => {
    assertAppError(await group(alice, []), 400, 'api.context.invalid_body_param.app_error');
    assertAppError(await group(alice, { user_ids: [bob.id, carol.id] }), 400, 'api.context.invalid_body_param.app_error');
    assertAppError(await group(alice, [bob.id, 'short']), 400, 'api.context.invalid_body_param.app_error');
    assertAppError(await group(alice, [bob.id, { $ne: '' }]), 400, 'api.context.invalid_body_param.app_error');
    assertAppError(await raw(world.target.url, 'POST', '/api/v4/channels/group', { body: [bob.id, carol.id] }), 401, 'api.context.session_expired.app_error');
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Channel } from '@mattermost/types/channels';
import { assertAppError, assertJson, raw } from './support/http';
import { newChannel, outsider, postIn, type Actor } from './support/posts-fixtures';
import { wsWorld, type WsWorld } from './support/ws-world';

describe('channel update, stats, view and unread', { timeout: 300_000 }, () => {
  let world: WsWorld;
  let alice: Actor;
  let bob: Actor;

  const put = (actor: Actor, id: string, body: unknown) => raw(world.target.url, 'PUT', `/api/v4/channels/${id}`, { token: actor.token, body });
  const view = (actor: Actor, body: unknown, userId = 'me') => raw(world.target.url, 'POST', `/api/v4/channels/members/${userId}/view`, { token: actor.token, body });
  const unread = (actor: Actor, channelId: string, userId = actor.id) => raw(world.target.url, 'GET', `/api/v4/users/${userId}/channels/${channelId}/unread`, { token: actor.token });

  before(async () => {
    world = await wsWorld();
    ({ alice, bob } = world);
  });
  after(async () => {
    await world?.stop();
  });

  it('when a channel is fully updated, then header and purpose are replaced (omitted = cleared), names only when non-empty', async () => {
    const channel = await alice.client.createChannel({ team_id: world.team.id, name: `full-${Date.now()}`, display_name: 'Full', type: 'O', header: 'old header', purpose: 'old purpose' } as Channel);
    const response = await put(alice, channel.id, { id: channel.id, display_name: 'Renamed', header: 'new header' });
    assertJson(response, 200);
    assert.equal(response.json.display_name, 'Renamed');
    assert.equal(response.json.name, channel.name);
    assert.equal(response.json.header, 'new header');
    assert.equal(response.json.purpose, '', 'omitted purpose is cleared');
    const read = await alice.client.getChannel(channel.id);
    assert.deepEqual([read.display_name, read.header, read.purpose], ['Renamed', 'new header', '']);
    const viaClient = await alice.client.updateChannel({ ...read, purpose: 'client purpose' });
    assert.equal(viaClient.purpose, 'client purpose');
  });

  it('when the full update is wrong, then the reference\'s 400s and 403s', async () => {
    const channel = await newChannel(alice, world.team);
    assertAppError(await put(alice, channel.id, { id: 'z'.repeat(26), header: 'x' }), 400, 'api.context.invalid_body_param.app_error');
    assertAppError(await put(alice, channel.id, { header: 'no id' }), 400, 'api.context.invalid_body_param.app_error');
    assertAppError(await put(alice, channel.id, { id: channel.id, type: 'P' }), 400, 'api.channel.update_channel.typechange.app_error');
    assertAppError(await put(alice, channel.id, { id: channel.id, header: 42 }), 400, 'api.context.invalid_body_param.app_error');
    const privateChannel = await newChannel(alice, world.team, 'P');
    assertAppError(await put(bob, privateChannel.id, { id: privateChannel.id, header: 'hijack' }), 403, 'api.context.permissions.app_error');
    const townSquare = await alice.client.getChannelByName(world.team.id, 'town-square');
    assertAppError(await put(world.admin as unknown as Actor, townSquare.id, { id: townSquare.id, name: 'renamed-square' }), 400, 'api.channel.update_channel.tried.app_error');
    await alice.client.deleteChannel(channel.id);
    assertAppError(await put(alice, channel.id, { id: channel.id, header: 'late' }), 400, 'api.channel.update_channel.deleted.app_error');
  });

  it('when stats are read, then active members, pinned count and files_count as asked; non-readers 403', async () => {
    const channel = await newChannel(alice, world.team, 'P');
    await alice.client.addToChannel(bob.id, channel.id);
    const post = await postIn(alice, channel.id, 'pinned one');
    await raw(world.target.url, 'POST', `/api/v4/posts/${post.id}/pin`, { token: bob.token });
    const stats = await raw(world.target.url, 'GET', `/api/v4/channels/${channel.id}/stats?exclude_files_count=true`, { token: bob.token });
    assertJson(stats, 200);
    assert.deepEqual(stats.json, { channel_id: channel.id, member_count: 2, guest_count: 0, pinnedpost_count: 1, files_count: -1 });
    const viaClient = await alice.client.getChannelStats(channel.id);
    assert.equal(viaClient.member_count, 2);
    const carol = await outsider(world.target.url, world.admin, 'cv');
    assertAppError(await raw(world.target.url, 'GET', `/api/v4/channels/${channel.id}/stats`, { token: carol.token }), 403, 'api.context.permissions.app_error');
    assertAppError(await raw(world.target.url, 'GET', '/api/v4/channels/bad/stats', { token: carol.token }), 400, 'api.context.invalid_url_param.app_error');
  });

  it('when a member views a channel with new posts, then unread drops to 0, last_viewed_at is the last post time, and multiple_channels_viewed (the newest reference event) reaches them', async () => {
    const channel = await newChannel(alice, world.team);
    await bob.client.addToChannel(bob.id, channel.id);
    const socket = await world.open(bob.token);
    await postIn(alice, channel.id, 'one');
    const root = await postIn(alice, channel.id, 'two');
    await postIn(alice, channel.id, 'reply', { root_id: root.id });
    const before = await unread(bob, channel.id);
    assertJson(before, 200);
    assert.equal(before.json.team_id, world.team.id);
    assert.ok(before.json.msg_count >= 3, JSON.stringify(before.json));
    assert.ok(before.json.msg_count_root >= 2 && before.json.msg_count_root < before.json.msg_count);
    const response = await view(bob, { channel_id: channel.id, prev_channel_id: '' });
    assertJson(response, 200);
    const lastPostAt = (await bob.client.getChannel(channel.id)).last_post_at;
    assert.deepEqual(response.json, { status: 'OK', last_viewed_at_times: { [channel.id]: lastPostAt } });
    const after = await unread(bob, channel.id);
    assert.deepEqual([after.json.msg_count, after.json.mention_count, after.json.msg_count_root], [0, 0, 0]);
    assert.equal((await bob.client.getChannelMember(channel.id, bob.id)).last_viewed_at, lastPostAt);
    const event = await socket.event('multiple_channels_viewed', (f) => (f.data?.channel_times as Record<string, number> | undefined)?.[channel.id] !== undefined);
    assert.deepEqual(event.data, { channel_times: { [channel.id]: lastPostAt } });
    assert.equal(event.broadcast?.user_id, bob.id);
    await postIn(alice, channel.id, 'after view');
    assert.equal((await unread(bob, channel.id)).json.msg_count, 1);
    await bob.client.viewMyChannel(channel.id);
    assert.equal((await unread(bob, channel.id)).json.msg_count, 0);
    assert.equal(socket.frames.filter((f) => f.event === 'channel_viewed').length, 0, 'the 2021 event is not sent: 9.0+ clients ignore it');
  });

  it('when a view names two channels with unreads and one without, then one multiple_channels_viewed carries the two that had unreads', async () => {
    const first = await newChannel(alice, world.team);
    const second = await newChannel(alice, world.team);
    const quiet = await newChannel(alice, world.team);
    for (const channel of [first, second, quiet]) await bob.client.addToChannel(bob.id, channel.id);
    await view(bob, { channel_id: quiet.id, prev_channel_id: '' });
    const socket = await world.open(bob.token);
    await postIn(alice, first.id, 'in first');
    await postIn(alice, second.id, 'in second');
    assertJson(await view(bob, { channel_id: first.id, prev_channel_id: second.id }), 200);
    const event = await socket.event('multiple_channels_viewed');
    const lastPostAt = async (id: string): Promise<number> => (await bob.client.getChannel(id)).last_post_at;
    assert.deepEqual(event.data, { channel_times: { [first.id]: await lastPostAt(first.id), [second.id]: await lastPostAt(second.id) } });
    assertJson(await view(bob, { channel_id: quiet.id, prev_channel_id: '' }), 200);
    await postIn(alice, first.id, 'again');
    assertJson(await view(bob, { channel_id: first.id, prev_channel_id: quiet.id }), 200);
    const next = await socket.event('multiple_channels_viewed');
    assert.deepEqual(Object.keys(next.data?.channel_times as Record<string, number>), [first.id], 'the view of the channel without unreads sent nothing and is not named');
  });

  it('when view or unread are bad or for someone else, then 400, 403 or 404 as the reference', async () => {
    const channel = await newChannel(alice, world.team);
    assert.deepEqual((await view(bob, { channel_id: '', prev_channel_id: '' })).json, { status: 'OK', last_viewed_at_times: {} });
    assertAppError(await view(bob, { channel_id: 'short' }), 400, 'api.context.invalid_body_param.app_error');
    assertAppError(await view(bob, { channel_id: channel.id, prev_channel_id: 7 }), 400, 'api.context.invalid_body_param.app_error');
    assertAppError(await view(bob, { channel_id: 'q'.repeat(26) }), 400, 'app.channel.update_last_viewed_at.app_error');
    const notMember = await view(bob, { channel_id: channel.id });
    assertJson(notMember, 200);
    assert.deepEqual(notMember.json.last_viewed_at_times, {});
    assertAppError(await view(bob, { channel_id: channel.id }, alice.id), 403, 'api.context.permissions.app_error');
    assertAppError(await unread(bob, channel.id, alice.id), 403, 'api.context.permissions.app_error');
    assertAppError(await unread(bob, channel.id), 404, 'app.channel.get_unread.app_error');
    const privateChannel = await newChannel(alice, world.team, 'P');
    assertAppError(await unread(bob, privateChannel.id), 403, 'api.context.permissions.app_error');
    await alice.client.deleteChannel(channel.id);
    assertAppError(await unread(alice, channel.id), 404, 'app.channel.get_unread.app_error');
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { patchConfig } from './support/fixtures';
import { eventually } from './support/eventually';
import { assertAppError, assertJson, raw } from './support/http';
import { newChannel, outsider, postIn, type Actor } from './support/posts-fixtures';
import { wsWorld, type WsWorld } from './support/ws-world';

describe('collapsed reply threads: viewing a channel marks its threads read; @here in replies', { timeout: 300_000 }, () => {
  let world: WsWorld;
  let alice: Actor;
  let bob: Actor;

  const url = (): string => world.target.url;
  const thread = (actor: Actor, threadId: string) => raw(url(), 'GET', `/api/v4/users/me/teams/${world.team.id}/threads/${threadId}`, { token: actor.token });
  const view = (actor: { token: string }, body: unknown, userId = 'me') => raw(url(), 'POST', `/api/v4/channels/members/${userId}/view`, { token: actor.token, body });

  /** A channel of alice and bob with a root of alice's and a reply of bob's mentioning her: one unread reply and mention. */
  const unreadThread = async (): Promise<{ channelId: string; rootId: string }> => {
    const channel = await newChannel(alice, world.team);
    await alice.client.addToChannel(bob.id, channel.id);
    const root = await postIn(alice, channel.id, 'root');
    await postIn(bob, channel.id, `look @${alice.username}`, { root_id: root.id });
    const before = await thread(alice, root.id);
    assertJson(before, 200);
    assert.deepEqual([before.json.unread_replies, before.json.unread_mentions], [1, 1]);
    return { channelId: channel.id, rootId: root.id };
  };

  before(async () => {
    world = await wsWorld({ alsoRestore: ['CollapsedThreads'] });
    ({ alice, bob } = world);
  });
  after(async () => {
    await world?.stop();
  });

  it('when a client without collapsed threads views the channel, then its threads are read (replies and mentions)', async () => {
    const { channelId, rootId } = await unreadThread();
    const socket = await world.open(alice.token);
    assertJson(await view(alice, { channel_id: channelId }), 200);
    // She does see collapsed threads (always_on): her other clients learn the channel's threads were read.
    const changed = await socket.event('thread_read_changed', (f) => f.broadcast?.channel_id === channelId);
    assert.equal(changed.broadcast?.user_id, alice.id);
    assert.equal(typeof changed.data?.timestamp, 'number');
    const after = await thread(alice, rootId);
    assert.deepEqual([after.json.unread_replies, after.json.unread_mentions], [0, 0]);
    assert.ok(after.json.last_viewed_at > 0);
    // A channel without unread messages leaves its threads alone (the reference only marks channels that had unreads).
    const replies = (await raw(url(), 'GET', `/api/v4/posts/${rootId}/thread`, { token: alice.token })).json as { order: string[]; posts: Record<string, { root_id: string }> };
    const replyId = replies.order.find((id) => replies.posts[id]?.root_id === rootId) ?? '';
    assertJson(await raw(url(), 'POST', `/api/v4/users/me/teams/${world.team.id}/threads/${rootId}/set_unread/${replyId}`, { token: alice.token }), 200);
    assert.equal((await thread(alice, rootId)).json.unread_replies, 1);
    assertJson(await view(alice, { channel_id: channelId }), 200);
    assert.equal((await thread(alice, rootId)).json.unread_replies, 1, 'nothing unread in the channel: the thread stays unread');
  });

  it('when a client that supports collapsed threads views it while CRT is on, then the threads stay unread; with CRT off they are read', async () => {
    const { channelId, rootId } = await unreadThread();
    assertJson(await view(alice, { channel_id: channelId, collapsed_threads_supported: true }), 200);
    assert.deepEqual([(await thread(alice, rootId)).json.unread_replies, (await thread(alice, rootId)).json.unread_mentions], [1, 1]);
    await patchConfig(world.admin.client, { ServiceSettings: { CollapsedThreads: 'default_off' } });
    await eventually('CRT off', async () => {
      const config = (await raw(url(), 'GET', '/api/v4/config/client?format=old', { token: alice.token })).json;
      return config.CollapsedThreads === 'default_off' ? true : undefined;
    });
    await eventually('threads read on view', async () => {
      // The first view left nothing unread in the channel: a new reply gives the view something to mark.
      await postIn(bob, channelId, 'one more', { root_id: rootId });
      assertJson(await view(alice, { channel_id: channelId, collapsed_threads_supported: true }), 200);
      const t = await thread(alice, rootId);
      return t.json.unread_replies === 0 && t.json.unread_mentions === 0 ? true : undefined;
    });
  });

  it('when bob views a channel, then only his own threads change; a bad flag is 400 and someone else\'s view needs edit_other_users', async () => {
    await patchConfig(world.admin.client, { ServiceSettings: { CollapsedThreads: 'always_on' } });
    const { channelId, rootId } = await unreadThread();
    assertJson(await view(bob, { channel_id: channelId }), 200);
    assert.deepEqual([(await thread(alice, rootId)).json.unread_replies, (await thread(alice, rootId)).json.unread_mentions], [1, 1]);
    assertAppError(await view(alice, { channel_id: channelId, collapsed_threads_supported: 'yes' }), 400, 'api.context.invalid_body_param.app_error');
    assertAppError(await view(bob, { channel_id: channelId }, alice.id), 403, 'api.context.permissions.app_error');
    assertJson(await view(world.admin, { channel_id: channelId }, alice.id), 200);
    assert.deepEqual([(await thread(alice, rootId)).json.unread_replies, (await thread(alice, rootId)).json.unread_mentions], [0, 0]);
  });

  it('when a reply says @here, then the channel members online (and only they) follow it with an unread mention', async () => {
    const carol = await outsider(url(), world.admin, 'hc');
    const dave = await outsider(url(), world.admin, 'hd');
    for (const u of [carol, dave]) await world.admin.client.addToTeam(world.team.id, u.id);
    const channel = await newChannel(alice, world.team);
    for (const u of [bob, carol, dave]) await alice.client.addToChannel(u.id, channel.id);
    const root = await postIn(alice, channel.id, 'root for here');
    await world.open(carol.token);
    await eventually('carol online', async () => ((await raw(url(), 'GET', `/api/v4/users/${carol.id}/status`, { token: bob.token })).json.status === 'online' ? true : undefined));
    await postIn(bob, channel.id, 'heads up @here', { root_id: root.id });
    const carolThread = await thread(carol, root.id);
    assertJson(carolThread, 200);
    assert.deepEqual([carolThread.json.unread_mentions, carolThread.json.unread_replies], [1, 1]);
    assertAppError(await thread(dave, root.id), 404, 'app.user.get_thread_membership_for_user.not_found');
    assert.equal((await thread(bob, root.id)).json.unread_mentions, 0, 'the author never mentions himself');
  });
});

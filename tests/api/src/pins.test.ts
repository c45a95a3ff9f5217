import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Post } from '@mattermost/types/posts';
import { assertAppError, assertJson, raw } from './support/http';
import { newChannel, outsider, postIn, type Actor } from './support/posts-fixtures';
import { parsed } from './support/ws';
import { wsWorld, type WsWorld } from './support/ws-world';

describe('pins', { timeout: 300_000 }, () => {
  let world: WsWorld;
  let alice: Actor;
  let bob: Actor;
  let channelId: string;

  const pin = (actor: Actor, postId: string, how: 'pin' | 'unpin' = 'pin') => raw(world.target.url, 'POST', `/api/v4/posts/${postId}/${how}`, { token: actor.token });
  const pinned = (actor: Actor, id = channelId) => raw(world.target.url, 'GET', `/api/v4/channels/${id}/pinned`, { token: actor.token });

  before(async () => {
    world = await wsWorld();
    ({ alice, bob } = world);
    channelId = (await newChannel(alice, world.team)).id;
    await bob.client.addToChannel(bob.id, channelId);
  });
  after(async () => {
    await world?.stop();
  });

  it('when a member pins someone else\'s post, then OK, is_pinned set, update_at bumped, edit_at unchanged, and post_edited reaches the channel', async () => {
    const socket = await world.open(alice.token);
    const post = await postIn(alice, channelId, 'pin me');
    const response = await pin(bob, post.id);
    assertJson(response, 200);
    assert.deepEqual(response.json, { status: 'OK' });
    const read = await alice.client.getPost(post.id);
    assert.equal(read.is_pinned, true);
    assert.ok(read.update_at >= post.update_at);
    assert.equal(read.edit_at, 0);
    const event = await socket.event('post_edited', (f) => parsed<Post>(f, 'post').id === post.id);
    assert.equal(parsed<Post>(event, 'post').is_pinned, true);
    assert.equal(event.broadcast?.channel_id, channelId);
  });

  it('when posts are pinned, then GET /channels/{id}/pinned lists them oldest first, replies included; unpinning removes one; pinning twice is harmless', async () => {
    const channel = (await newChannel(alice, world.team)).id;
    const first = await postIn(alice, channel, 'first');
    const reply = await postIn(alice, channel, 'reply', { root_id: first.id });
    const unpinnedLater = await postIn(alice, channel, 'third');
    await postIn(alice, channel, 'never pinned');
    for (const p of [unpinnedLater, reply, first, first]) assertJson(await pin(alice, p.id), 200);
    const list = await pinned(alice, channel);
    assertJson(list, 200);
    assert.deepEqual(list.json.order, [first.id, reply.id, unpinnedLater.id]);
    assert.equal(list.json.posts[reply.id].reply_count, 1);
    assertJson(await pin(alice, unpinnedLater.id, 'unpin'), 200);
    assert.deepEqual((await pinned(alice, channel)).json.order, [first.id, reply.id]);
    assert.equal((await alice.client.getPost(unpinnedLater.id)).is_pinned, false);
    const viaClient = await alice.client.getPinnedPosts(channel);
    assert.deepEqual(viaClient.order, [first.id, reply.id]);
    await alice.client.deletePost(reply.id);
    assert.deepEqual((await pinned(alice, channel)).json.order, [first.id], 'deleted posts are never listed');
  });

  it('when the official client pins and unpins, then it works', async () => {
    const post = await postIn(alice, channelId, 'client pin');
    await bob.client.pinPost(post.id);
    assert.equal((await bob.client.getPost(post.id)).is_pinned, true);
    await bob.client.unpinPost(post.id);
    assert.equal((await bob.client.getPost(post.id)).is_pinned, false);
  });

  it('when a non-member pins or lists a private channel, or the ids are unknown or bad, then 403, 404 or 400 as the reference', async () => {
    const privateChannel = (await newChannel(alice, world.team, 'P')).id;
    const secret = await postIn(alice, privateChannel, 'secret');
    const carol = await outsider(world.target.url, world.admin, 'pc');
    assertAppError(await pin(bob, secret.id), 403, 'api.context.permissions.app_error');
    assertAppError(await pin(carol, secret.id, 'unpin'), 403, 'api.context.permissions.app_error');
    assertAppError(await pinned(bob, privateChannel), 403, 'api.context.permissions.app_error');
    assert.equal((await alice.client.getPost(secret.id)).is_pinned, false);
    assertAppError(await pin(bob, 'c'.repeat(26)), 403, 'api.context.permissions.app_error');
    assertAppError(await pinned(bob, 'c'.repeat(26)), 403, 'api.context.permissions.app_error');
    assertAppError(await pin(bob, 'not-an-id'), 400, 'api.context.invalid_url_param.app_error');
    assertAppError(await pinned(bob, 'not-an-id'), 400, 'api.context.invalid_url_param.app_error');
    assertAppError(await raw(world.target.url, 'POST', `/api/v4/posts/${secret.id}/pin`), 401, 'api.context.session_expired.app_error');
  });

  it('when the post is deleted, a system message, or in an archived channel, then 404 or 400', async () => {
    const channel = await newChannel(alice, world.team);
    const deleted = await postIn(alice, channel.id, 'gone');
    await alice.client.deletePost(deleted.id);
    assertAppError(await pin(alice, deleted.id), 404, 'app.post.get.app_error');
    const system = (await alice.client.getPosts(channel.id)).order.map((id) => id);
    const systemPosts = await alice.client.getPosts(channel.id);
    const systemPost = system.map((id) => systemPosts.posts[id]).find((p) => p?.type.startsWith('system_'));
    if (systemPost) assertAppError(await pin(alice, systemPost.id), 400, 'api.post.update_post.system_message.app_error');
    const kept = await postIn(alice, channel.id, 'archived soon');
    await alice.client.deleteChannel(channel.id);
    assertAppError(await pin(alice, kept.id), 400, 'api.post.patch_post.can_not_update_post_in_deleted.error');
  });
});

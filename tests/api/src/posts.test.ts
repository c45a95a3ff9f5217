import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Post, PostList } from '@mattermost/types/posts';
import type { Team } from '@mattermost/types/teams';
import { expectClientError } from './support/client';
import { patchConfig, type AdminSession } from './support/fixtures';
import { givenAdminWorld } from './support/admin-world';
import { assertAppError, assertJson, raw } from './support/http';
import { newChannel, newTeam, postIn, teamBot, teamMember, type Actor } from './support/posts-fixtures';
import type { Target } from './support/target';

const ID = /^[a-z0-9]{26}$/;
const PERMISSIONS = 'api.context.permissions.app_error';

describe('posts', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;
  let team: Team;
  let alice: Actor;
  let bob: Actor;
  let channelId: string;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
    team = await newTeam(admin);
    alice = await teamMember(target.url, admin, team, 'alice');
    bob = await teamMember(target.url, admin, team, 'bob');
    channelId = (await newChannel(alice, team)).id;
    await bob.client.addToChannel(bob.id, channelId);
  });
  after(async () => {
    await target?.stop();
  });

  const create = (token: string, body: unknown, query = '') => raw(target.url, 'POST', `/api/v4/posts${query}`, { token, body });

  it('when a member posts with raw HTTP, then 201 with every Post field the client expects', async () => {
    const response = await create(alice.token, { channel_id: channelId, message: 'hello #world', props: { custom: { a: 1 } } }, '?set_online=false');
    assertJson(response, 201);
    const post = response.json as Post;
    assert.match(post.id, ID);
    for (const key of ['create_at', 'update_at', 'edit_at', 'delete_at', 'is_pinned', 'user_id', 'channel_id', 'root_id', 'original_id', 'message', 'type', 'props', 'hashtags', 'file_ids', 'pending_post_id', 'reply_count', 'last_reply_at', 'participants']) {
      assert.ok(key in post, `Post has ${key}`);
    }
    assert.equal(post.user_id, alice.id);
    assert.equal(post.message, 'hello #world');
    assert.equal(post.hashtags, '#world');
    assert.deepEqual(post.props, { custom: { a: 1 } });
    assert.deepEqual(post.file_ids, []);
    assert.equal(post.edit_at, 0);
    assert.equal(post.delete_at, 0);
    assert.equal(post.type, '');
    assert.equal(post.create_at, post.update_at);
  });

  it('when the official client posts and reads back, then the same post', async () => {
    const post = await postIn(alice, channelId, 'via client');
    assert.deepEqual(await bob.client.getPost(post.id), post);
  });

  it('when the same pending_post_id is sent twice within 30 s, then the same post is returned and only one is stored', async () => {
    const pending = `${alice.id}:${Date.now()}`;
    const first = (await create(alice.token, { channel_id: channelId, message: 'once', pending_post_id: pending })).json as Post;
    const second = await create(alice.token, { channel_id: channelId, message: 'once', pending_post_id: pending });
    assertJson(second, 201);
    assert.equal((second.json as Post).id, first.id);
    assert.equal(first.pending_post_id, pending);
    const since = await alice.client.getPostsSince(channelId, first.create_at - 1);
    assert.equal(Object.values(since.posts).filter((p) => p.message === 'once').length, 1);
  });

  it('when the message is longer than 16383 runes, then 400 model.post.is_valid.message_length.app_error; 16383 emoji are fine', async () => {
    assertAppError(await create(alice.token, { channel_id: channelId, message: 'x'.repeat(16384) }), 400, 'model.post.is_valid.message_length.app_error');
    assertJson(await create(alice.token, { channel_id: channelId, message: '😀'.repeat(16383) }), 201);
  });

  it('when props serialise to more than 800000 runes, then 400 model.post.is_valid.props.app_error', async () => {
    await patchConfig(admin.client, { ServiceSettings: { MaximumPayloadSizeBytes: 2_000_000 } });
    try {
      assertAppError(await create(alice.token, { channel_id: channelId, message: 'big', props: { blob: 'y'.repeat(800_001) } }), 400, 'model.post.is_valid.props.app_error');
    } finally {
      await patchConfig(admin.client, { ServiceSettings: { MaximumPayloadSizeBytes: 300000 } });
    }
  });

  it('when the type is system_* from a client, then 400 invalid_param; unknown types are 400 model.post.is_valid.type; custom_* is accepted', async () => {
    assertAppError(await create(alice.token, { channel_id: channelId, message: 'm', type: 'system_join_channel' }), 400, 'api.context.invalid_param.app_error');
    assertAppError(await create(alice.token, { channel_id: channelId, message: 'm', type: 'weird' }), 400, 'model.post.is_valid.type.app_error');
    const custom = await create(alice.token, { channel_id: channelId, message: 'm', type: 'custom_poll' });
    assertJson(custom, 201);
    assert.equal((custom.json as Post).type, 'custom_poll');
  });

  it('when the body has wrong types or bad ids, then the reference\'s status and error id each, never a 500', async () => {
    // The reference decodes the body into a Go Post (a type mismatch is 400 invalid_body_param), then checks
    // create_post on the channel (an unknown or malformed channel id is 403), then the root (400 root_id).
    const BODY = 'api.context.invalid_body_param.app_error';
    const cases: [unknown, number, string][] = [
      [{ channel_id: channelId, message: 42 }, 400, BODY],
      [{ channel_id: 'nope', message: 'm' }, 403, PERMISSIONS],
      [{ message: 'm' }, 403, PERMISSIONS],
      [{ channel_id: channelId, message: 'm', props: 'nope' }, 400, BODY],
      [{ channel_id: channelId, message: 'm', props: [] }, 400, BODY],
      [{ channel_id: channelId, message: 'm', file_ids: 'x' }, 400, BODY],
      [{ channel_id: channelId, message: 'm', root_id: 'bad' }, 400, 'api.post.create_post.root_id.app_error'],
      [{ channel_id: { $gt: '' }, message: 'm' }, 400, BODY],
      [[], 400, BODY],
      ['text', 400, BODY],
    ];
    for (const [body, status, id] of cases) assertAppError(await create(alice.token, body), status, id);
    assertAppError(await raw(target.url, 'POST', '/api/v4/posts', { token: alice.token, rawBody: '{"channel_id":' }), 400, 'api.context.invalid_body_param.app_error');
    assertAppError(await raw(target.url, 'POST', '/api/v4/posts', { token: alice.token, rawBody: `{"channel_id":"${channelId}","__proto__":{"x":1}}` }), 400, 'api.context.invalid_body_param.app_error');
  });

  it('when a reply names an unknown root or a reply as root, then 400 api.post.create_post.root_id.app_error; a valid reply counts on the root', async () => {
    const root = await postIn(alice, channelId, 'root');
    const reply = await postIn(bob, channelId, 'reply', { root_id: root.id });
    assert.equal(reply.root_id, root.id);
    assertAppError(await create(alice.token, { channel_id: channelId, message: 'r', root_id: reply.id }), 400, 'api.post.create_post.root_id.app_error');
    assertAppError(await create(alice.token, { channel_id: channelId, message: 'r', root_id: 'a'.repeat(26) }), 400, 'api.post.create_post.root_id.app_error');
    assert.equal((await alice.client.getPost(root.id)).reply_count, 1);
  });

  it('when the channel is archived, then posting is 400 api.post.create_post.can_not_post_to_deleted.error', async () => {
    const channel = await newChannel(alice, team);
    await alice.client.deleteChannel(channel.id);
    await expectClientError(postIn(alice, channel.id), 400, 'api.post.create_post.can_not_post_to_deleted.error');
  });

  it('when the author edits with PUT, then message and edit_at change; a wrong body id is 400', async () => {
    const post = await postIn(alice, channelId, 'first');
    const updated = await alice.client.updatePost({ ...post, message: 'second' });
    assert.equal(updated.message, 'second');
    assert.ok(updated.edit_at > 0);
    assert.ok(updated.update_at >= post.update_at);
    const wrong = await raw(target.url, 'PUT', `/api/v4/posts/${post.id}`, { token: alice.token, body: { id: 'a'.repeat(26), message: 'x' } });
    assertAppError(wrong, 400, 'api.context.invalid_body_param.app_error');
  });

  it('when the author patches props, then the whole props map is replaced', async () => {
    const post = await postIn(alice, channelId, 'p', { props: { a: '1', b: '2' } });
    const patched = await alice.client.patchPost({ id: post.id, props: { c: '3' } });
    assert.deepEqual(patched.props, { c: '3' });
    assert.equal(patched.message, 'p');
    const pinned = await alice.client.patchPost({ id: post.id, is_pinned: true });
    assert.equal(pinned.is_pinned, true);
    assert.equal(pinned.edit_at, patched.edit_at);
  });

  it('when another member edits or deletes the post, then 403; the author deletes it and it is gone', async () => {
    const post = await postIn(alice, channelId, 'mine');
    await expectClientError(bob.client.patchPost({ id: post.id, message: 'theirs' }), 403, 'api.context.permissions.app_error');
    await expectClientError(bob.client.deletePost(post.id), 403, 'api.context.permissions.app_error');
    assert.deepEqual(await alice.client.deletePost(post.id), { status: 'OK' });
    await expectClientError(alice.client.getPost(post.id), 404, 'app.post.get.app_error');
    const deleted = await admin.client.getPost(post.id, true);
    assert.ok(deleted.delete_at > 0);
    assert.equal(deleted.props.deleteBy, alice.id);
  });

  it('when a bot posts, then props.from_bot is "true" and no later edit removes it', async () => {
    const bot = await teamBot(target.url, admin, team);
    await alice.client.addToChannel(bot.id, channelId);
    const post = await postIn(bot, channelId, 'beep', { props: { x: '1' } });
    assert.equal(post.props.from_bot, 'true');
    const patched = await bot.client.patchPost({ id: post.id, props: { y: '2' } });
    assert.deepEqual(patched.props, { y: '2', from_bot: 'true' });
    const updated = await bot.client.updatePost({ ...patched, props: { from_bot: 'false' } });
    assert.equal(updated.props.from_bot, 'true');
    const human = await postIn(alice, channelId, 'not a bot', { props: { from_bot: 'true' } });
    const humanPatched = await alice.client.patchPost({ id: human.id, message: 'still' });
    assert.equal(humanPatched.props.from_bot, 'true', 'a human-set prop is kept on a message-only edit');
  });

  it('when the list is paged, then a PostList newest first with prev/next ids, before/after and since', async () => {
    const channel = await newChannel(alice, team);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const created = await postIn(alice, channel.id, `n${i}`);
      ids.push(created.id);
      // Paging is by create_at: the next post must get a later one. The server runs on this machine's clock,
      // so wait until that clock is past this post's create_at (a condition, not a guessed sleep).
      while (Date.now() <= created.create_at) await new Promise((resolve) => setImmediate(resolve));
    }
    const page0: PostList = await alice.client.getPosts(channel.id, 0, 2);
    assert.deepEqual(page0.order, [ids[4], ids[3]]);
    assert.deepEqual(Object.keys(page0.posts).sort(), [ids[4], ids[3]].sort());
    assert.equal(page0.prev_post_id, ids[2]);
    assert.equal(page0.next_post_id, '');
    assert.equal(page0.first_inaccessible_post_time, 0);
    const page1 = await alice.client.getPosts(channel.id, 1, 2);
    assert.deepEqual(page1.order, [ids[2], ids[1]]);
    const before = await alice.client.getPostsBefore(channel.id, ids[3] ?? '', 0, 2);
    assert.deepEqual(before.order, [ids[2], ids[1]]);
    const afterList = await alice.client.getPostsAfter(channel.id, ids[1] ?? '', 0, 2);
    assert.deepEqual(afterList.order, [ids[3], ids[2]]);
    const third = await alice.client.getPost(ids[2] ?? '');
    await alice.client.deletePost(ids[0] ?? '');
    const since = await alice.client.getPostsSince(channel.id, third.create_at);
    assert.ok(since.order.includes(ids[3] ?? '') && since.order.includes(ids[4] ?? ''));
    assert.ok(since.order.includes(ids[0] ?? ''), 'since includes deleted posts');
    assert.ok((since.posts[ids[0] ?? '']?.delete_at ?? 0) > 0);
    assert.ok(!since.order.includes(ids[1] ?? ''));
    const plain = await alice.client.getPosts(channel.id, 0, 60);
    assert.ok(!plain.order.includes(ids[0] ?? ''), 'pages hide deleted posts');
  });

  it('when a non-member reads a private channel\'s posts, then 403; invalid paging is clamped', async () => {
    const channel = await newChannel(alice, team, 'P');
    await postIn(alice, channel.id);
    await expectClientError(bob.client.getPosts(channel.id), 403, 'api.context.permissions.app_error');
    const odd = await raw(target.url, 'GET', `/api/v4/channels/${channel.id}/posts?page=-1&per_page=abc`, { token: alice.token });
    assertJson(odd, 200);
    assert.equal((odd.json as PostList).order.length, 1);
    assertAppError(await raw(target.url, 'GET', `/api/v4/channels/${channel.id}/posts?since=yesterday`, { token: alice.token }), 400, 'api.context.invalid_body_param.app_error');
    // The reference's SetInvalidParam for a bad cursor id too; a negative since parses (Go's ParseInt) and is ignored.
    assertAppError(await raw(target.url, 'GET', `/api/v4/channels/${channel.id}/posts?before=nope`, { token: alice.token }), 400, 'api.context.invalid_body_param.app_error');
    assertJson(await raw(target.url, 'GET', `/api/v4/channels/${channel.id}/posts?since=-1`, { token: alice.token }), 200);
  });

  it('when posts are read with bad ids, then 400 invalid_url_param; unknown is 404 for an admin', async () => {
    assertAppError(await raw(target.url, 'GET', '/api/v4/posts/zzz', { token: alice.token }), 400, 'api.context.invalid_url_param.app_error');
    assertAppError(await raw(target.url, 'GET', `/api/v4/posts/${'b'.repeat(26)}`, { token: admin.token }), 404, 'app.post.get.app_error');
  });

  it('when permanent deletion is asked while disabled, then 501 api.post.delete_post.not_enabled.app_error', async () => {
    const post = await postIn(alice, channelId, 'keep');
    assertAppError(await raw(target.url, 'DELETE', `/api/v4/posts/${post.id}?permanent=true`, { token: admin.token }), 501, 'api.post.delete_post.not_enabled.app_error');
  });
});

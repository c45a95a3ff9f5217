import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Channel } from '@mattermost/types/channels';
import type { Post, PostList } from '@mattermost/types/posts';
import type { Team } from '@mattermost/types/teams';
import { expectClientError } from './support/client';
import type { AdminSession } from './support/fixtures';
import { givenAdminWorld } from './support/admin-world';
import { assertAppError, raw } from './support/http';
import { createIncomingHook, sendToHook, waitForPosts } from './support/incoming-hooks';
import { newChannel, newTeam, postIn, teamMember, type Actor } from './support/posts-fixtures';
import type { Target } from './support/target';

/** Threads as thread-aware clients use them (wire-2 §4), with the official client and raw HTTP. */
describe('threads (black box)', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;
  let team: Team;
  let channel: Channel;
  let member: Actor;
  let root: Post;
  let replies: Post[];

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
    team = await newTeam(admin);
    member = await teamMember(target.url, admin, team, 'thr');
    channel = await newChannel(member, team);
    root = await postIn(member, channel.id, 'thread root');
    replies = [];
    for (let i = 0; i < 3; i += 1) {
      const reply = await postIn(member, channel.id, `reply ${i}`, { root_id: root.id });
      assert.equal(reply.reply_count, i + 1, 'the create answer of a reply carries the new count');
      replies.push(reply);
    }
  });
  after(async () => {
    await target?.stop();
  });

  it('when the official client fetches the thread (getPostThread), then the root and every reply come back, root first, replies oldest first', async () => {
    const list: PostList = await member.client.getPostThread(root.id);
    assert.deepEqual(list.order, [root.id, ...replies.map((r) => r.id)]);
    for (const id of list.order) assert.equal(list.posts[id]?.reply_count, 3);
    const fromReply: PostList = await member.client.getPostThread(replies[1]?.id ?? '');
    assert.equal(fromReply.order[0], replies[1]?.id);
    assert.deepEqual([...fromReply.order].sort(), [root.id, ...replies.map((r) => r.id)].sort(), 'each post once');
  });

  it('when the client pages the thread (getPaginatedPostThread), then perPage counts the root and the cursor continues after the last post', async () => {
    const first = (await member.client.getPaginatedPostThread(root.id, { perPage: 2, direction: 'down' })) as PostList & { has_next?: boolean };
    assert.deepEqual(first.order, [root.id, replies[0]?.id]);
    assert.equal(first.has_next, true);
    const last = replies[0] as Post;
    const second = (await member.client.getPaginatedPostThread(root.id, { perPage: 2, direction: 'down', fromPost: last.id, fromCreateAt: last.create_at })) as PostList & { has_next?: boolean };
    assert.deepEqual(second.order, [root.id, replies[1]?.id, replies[2]?.id]);
    assert.equal(second.has_next, false);
  });

  it('when the thread query is invalid, then 400 api.context.invalid_body_param.app_error (the reference\'s SetInvalidParam)', async () => {
    for (const query of ['?perPage=500', '?perPage=x', '?direction=left', `?fromPost=${root.id}`, '?fromCreateAt=yesterday', '?fromUpdateAt=x']) {
      assertAppError(await raw(target.url, 'GET', `/api/v4/posts/${root.id}/thread${query}`, { token: member.token }), 400, 'api.context.invalid_body_param.app_error');
    }
  });

  it('when a user outside a private channel asks for its thread, then 403', async () => {
    const secret = await newChannel(member, team, 'P');
    const hidden = await postIn(member, secret.id, 'hidden');
    const stranger = await teamMember(target.url, admin, team, 'ths');
    assertAppError(await raw(target.url, 'GET', `/api/v4/posts/${hidden.id}/thread`, { token: stranger.token }), 403, 'api.context.permissions.app_error');
  });

  it('when a reply names a bad root, then 400 with the reference ids', async () => {
    const elsewhere = await postIn(member, (await newChannel(member, team)).id, 'elsewhere');
    const reply = (rootId: string) => raw(target.url, 'POST', '/api/v4/posts', { token: member.token, body: { channel_id: channel.id, message: 'r', root_id: rootId } });
    assertAppError(await reply(replies[0]?.id ?? ''), 400, 'api.post.create_post.root_id.app_error');
    assertAppError(await reply('x'.repeat(26)), 400, 'api.post.create_post.root_id.app_error');
    assertAppError(await reply('not-an-id'), 400, 'api.post.create_post.root_id.app_error');
    assertAppError(await reply(elsewhere.id), 400, 'api.post.create_post.channel_root_id.app_error');
    await expectClientError(member.client.createPost({ channel_id: channel.id, message: 'r', root_id: elsewhere.id } as Post), 400, 'api.post.create_post.channel_root_id.app_error');
  });

  it('when a reply is deleted, then the root count drops; when the root is deleted, then the thread is gone', async () => {
    const top = await postIn(member, channel.id, 'short thread');
    const a = await postIn(member, channel.id, 'a', { root_id: top.id });
    const b = await postIn(member, channel.id, 'b', { root_id: top.id });
    await member.client.deletePost(a.id);
    assert.equal((await member.client.getPost(top.id)).reply_count, 1);
    assert.deepEqual((await member.client.getPostThread(top.id)).order, [top.id, b.id]);
    await member.client.deletePost(top.id);
    assertAppError(await raw(target.url, 'GET', `/api/v4/posts/${b.id}`, { token: admin.token }), 404, 'app.post.get.app_error');
  });

  it('when an incoming webhook sends root_id, then its post joins the thread; a bad root is refused with 400', async () => {
    const hook = await createIncomingHook(target.url, admin.token, { channel_id: channel.id, display_name: 'thread hook' });
    await admin.client.addToChannel(admin.user.id, channel.id);
    const res = await sendToHook(target.url, hook.id, { text: 'hook reply', root_id: root.id }, { query: '?wait=true' });
    assert.equal(res.status, 200, res.text);
    const [postId] = (res.json as { post_ids: string[] }).post_ids as [string];
    const [posted] = await waitForPosts(target.url, member.token, channel.id, [postId]);
    assert.equal(posted?.root_id, root.id);
    const thread = (await raw(target.url, 'GET', `/api/v4/posts/${root.id}/thread`, { token: member.token })).json as PostList;
    assert.ok(thread.order.includes(postId));
    assert.ok(!JSON.stringify(thread).includes(hook.id), 'the thread does not carry the hook key');
    assertAppError(await sendToHook(target.url, hook.id, { text: 'x', root_id: replies[0]?.id }), 400, 'api.post.create_post.root_id.app_error');
    assertAppError(await sendToHook(target.url, hook.id, { text: 'x', root_id: 'short' }), 400, 'api.context.invalid_param.app_error');
  });
});

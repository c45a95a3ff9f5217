import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Post } from '@mattermost/types/posts';
import { patchConfig } from './support/fixtures';
import { eventually } from './support/eventually';
import { assertAppError, assertJson, raw, type RawResponse } from './support/http';
import { createIncomingHook, sendToHook } from './support/incoming-hooks';
import { newChannel, outsider, postIn, type Actor } from './support/posts-fixtures';
import { parsed } from './support/ws';
import { wsWorld, type WsWorld } from './support/ws-world';

/** A JSON value of an answer (as loosely typed as RawResponse's). */
type Json = RawResponse['json'];

describe('collapsed reply threads: /users/{id}/teams/{team_id}/threads', { timeout: 300_000 }, () => {
  let world: WsWorld;
  let alice: Actor;
  let bob: Actor;

  const url = (): string => world.target.url;
  const threads = (actor: Actor, query = '', userId = 'me', teamId = world.team.id) => raw(url(), 'GET', `/api/v4/users/${userId}/teams/${teamId}/threads${query}`, { token: actor.token });
  const thread = (actor: Actor, threadId: string, query = '', userId = 'me') => raw(url(), 'GET', `/api/v4/users/${userId}/teams/${world.team.id}/threads/${threadId}${query}`, { token: actor.token });
  const follow = (actor: Actor, threadId: string, method: 'PUT' | 'DELETE', userId = 'me') => raw(url(), method, `/api/v4/users/${userId}/teams/${world.team.id}/threads/${threadId}/following`, { token: actor.token });
  const readAt = (actor: Actor, threadId: string, timestamp: number | string, userId = 'me') => raw(url(), 'PUT', `/api/v4/users/${userId}/teams/${world.team.id}/threads/${threadId}/read/${timestamp}`, { token: actor.token });
  const setUnread = (actor: Actor, threadId: string, postId: string) => raw(url(), 'POST', `/api/v4/users/me/teams/${world.team.id}/threads/${threadId}/set_unread/${postId}`, { token: actor.token });
  const readAll = (actor: Actor, userId = 'me') => raw(url(), 'PUT', `/api/v4/users/${userId}/teams/${world.team.id}/threads/read`, { token: actor.token });
  const listed = (response: { json: unknown }, id: string): Json | undefined => ((response.json as Json).threads as Json[]).find((t) => t.id === id);

  before(async () => {
    world = await wsWorld({ alsoRestore: ['CollapsedThreads'] });
    ({ alice, bob } = world);
  });
  after(async () => {
    await world?.stop();
  });

  it('when someone replies, then the root author, the replier and an @-mentioned member follow it, with unread replies and mentions as the reference counts them', async () => {
    const carol = await outsider(url(), world.admin, 'carol');
    await world.admin.client.addToTeam(world.team.id, carol.id);
    const channel = await newChannel(alice, world.team);
    for (const actor of [bob, carol]) await alice.client.addToChannel(actor.id, channel.id);
    const root = await postIn(alice, channel.id, 'root of the thread');
    const aliceSocket = await world.open(alice.token);
    const reply = await postIn(bob, channel.id, `what do you think @${carol.username}?`, { root_id: root.id });

    const aliceList = await threads(alice, '?extended=true');
    assertJson(aliceList, 200);
    assert.deepEqual(Object.keys(aliceList.json), ['total', 'total_unread_threads', 'total_unread_mentions', 'total_unread_urgent_mentions', 'threads']);
    const seen = listed(aliceList, root.id) as Json;
    assert.ok(seen, JSON.stringify(aliceList.json));
    assert.deepEqual(Object.keys(seen), ['id', 'reply_count', 'last_reply_at', 'last_viewed_at', 'participants', 'post', 'unread_replies', 'unread_mentions', 'is_urgent', 'delete_at']);
    assert.equal(seen.reply_count, 1);
    assert.equal(seen.last_reply_at, reply.create_at);
    assert.equal(seen.unread_replies, 1);
    assert.equal(seen.unread_mentions, 0);
    assert.equal(seen.post.id, root.id);
    assert.equal(seen.post.reply_count, 1);
    assert.equal(seen.participants.length, 1);
    assert.equal(seen.participants[0].id, bob.id);
    assert.equal(seen.participants[0].username, bob.username, 'extended participants are real users');
    assert.equal(aliceList.json.total, 1);
    assert.equal(aliceList.json.total_unread_threads, 1);

    const stubs = await threads(alice);
    assert.deepEqual((listed(stubs, root.id) as Json).participants, [{ id: bob.id }]);

    const bobThread = await thread(bob, root.id);
    assertJson(bobThread, 200);
    assert.equal(bobThread.json.unread_replies, 0, 'the replier has read it');
    const carolThread = await thread(carol, root.id);
    assertJson(carolThread, 200);
    assert.equal(carolThread.json.unread_mentions, 1);
    assert.equal(carolThread.json.unread_replies, 1);
    assert.equal((await threads(carol)).json.total_unread_mentions, 1);

    const updated = await aliceSocket.event('thread_updated', (f) => parsed(f, 'thread').id === root.id);
    assert.deepEqual(updated.broadcast?.user_id, alice.id);
    assert.equal(updated.broadcast?.team_id, world.team.id);
    const payload = parsed<Json>(updated, 'thread');
    assert.equal(payload.reply_count, 1);
    assert.equal(payload.participants[0].username, bob.username);
    assert.equal(updated.data?.previous_unread_replies, 0);
    assert.equal(updated.data?.previous_unread_mentions, 0);

    await postIn(carol, channel.id, 'second reply', { root_id: root.id });
    const second = await aliceSocket.event('thread_updated', (f) => parsed<Json>(f, 'thread').id === root.id && parsed<Json>(f, 'thread').reply_count === 2);
    const secondPayload = parsed<Json>(second, 'thread');
    assert.deepEqual(secondPayload.participants.map((p: Json) => p.id), [bob.id, carol.id], 'reply authors in the order of their first reply');
    assert.equal(secondPayload.unread_replies, 2);
    assert.equal(second.data?.previous_unread_replies, 1, 'the replies unread before this one');
    const dave = await outsider(url(), world.admin, 'dave');
    await world.admin.client.addToTeam(world.team.id, dave.id);
    assertAppError(await thread(dave, root.id), 404, 'app.user.get_thread_membership_for_user.not_found');
  });

  it('when a thread is unfollowed and followed again, then it leaves and rejoins the list, and thread_follow_changed reaches the user', async () => {
    const channel = await newChannel(alice, world.team);
    await alice.client.addToChannel(bob.id, channel.id);
    const root = await postIn(alice, channel.id, 'follow me');
    await postIn(bob, channel.id, 'first reply', { root_id: root.id });
    const socket = await world.open(alice.token);

    const unfollowed = await follow(alice, root.id, 'DELETE');
    assertJson(unfollowed, 200);
    assert.deepEqual(unfollowed.json, { status: 'OK' });
    const changed = await socket.event('thread_follow_changed', (f) => f.data?.thread_id === root.id);
    assert.deepEqual(changed.data, { reply_count: 1, state: false, thread_id: root.id });
    assert.equal(listed(await threads(alice), root.id), undefined);
    assertAppError(await thread(alice, root.id), 404, 'app.user.get_threads_for_user.not_found');

    await postIn(bob, channel.id, 'a reply that does not mention alice', { root_id: root.id });
    assert.equal(listed(await threads(alice), root.id), undefined, 'an unfollowed thread stays unfollowed');
    await postIn(bob, channel.id, `now @${alice.username} look`, { root_id: root.id });
    const back = listed(await threads(alice), root.id);
    assert.ok(back, 'a mention follows it again');
    assert.equal(back.unread_mentions, 1);

    assertJson(await follow(alice, root.id, 'DELETE'), 200);
    assertJson(await follow(alice, root.id, 'PUT'), 200);
    const followed = await socket.event('thread_follow_changed', (f) => f.data?.thread_id === root.id && f.data?.state === true);
    assert.equal(followed.data?.reply_count, 3);
    const again = await thread(alice, root.id);
    assert.equal(again.json.unread_replies, 0, 'following marks it read');
    assert.equal(again.json.unread_mentions, 0);
  });

  it('when a thread is read at a time, set unread at a reply or all are marked read, then the counts move and thread_read_changed reaches the user', async () => {
    const channel = await newChannel(alice, world.team);
    await alice.client.addToChannel(bob.id, channel.id);
    const root = await postIn(alice, channel.id, 'read me');
    const first = await postIn(bob, channel.id, `one @${alice.username}`, { root_id: root.id });
    const second = await postIn(bob, channel.id, 'two', { root_id: root.id });
    const socket = await world.open(alice.token);
    assert.equal((await thread(alice, root.id)).json.unread_replies, 2);

    const read = await readAt(alice, root.id, second.create_at);
    assertJson(read, 200);
    assert.equal(read.json.id, root.id);
    assert.equal(read.json.last_viewed_at, second.create_at);
    assert.deepEqual([read.json.unread_replies, read.json.unread_mentions], [0, 0]);
    const event = await socket.event('thread_read_changed', (f) => f.data?.thread_id === root.id);
    assert.equal(event.broadcast?.user_id, alice.id);
    assert.deepEqual(event.data, { channel_id: channel.id, previous_unread_mentions: 1, previous_unread_replies: 2, thread_id: root.id, timestamp: second.create_at, unread_mentions: 0, unread_replies: 0 });

    const unread = await setUnread(alice, root.id, first.id);
    assertJson(unread, 200);
    assert.equal(unread.json.last_viewed_at, first.create_at - 1);
    assert.deepEqual([unread.json.unread_replies, unread.json.unread_mentions], [2, 1], 'mentions are counted again from the replies after it');

    const other = await postIn(alice, channel.id, 'another root');
    assertAppError(await setUnread(alice, root.id, other.id), 400, 'app.user.update_thread_read_for_user_by_post.app_error');

    const all = await readAll(alice);
    assertJson(all, 200);
    assert.deepEqual(all.json, { status: 'OK' });
    await socket.event('thread_read_changed', (f) => f.data?.thread_id === undefined);
    const after = await threads(alice);
    assert.equal(after.json.total_unread_threads, 0);
    assert.equal(after.json.total_unread_mentions, 0);
    assert.equal((listed(after, root.id) as Json).unread_replies, 0);
  });

  it('when the list is paged or filtered, then per_page, before/after, unread, since and totalsOnly/threadsOnly behave as the reference', async () => {
    const channel = await newChannel(alice, world.team);
    await alice.client.addToChannel(bob.id, channel.id);
    const roots: Post[] = [];
    for (let i = 0; i < 3; i += 1) {
      const root = await postIn(bob, channel.id, `paged ${i}`);
      await postIn(alice, channel.id, `reply ${i}`, { root_id: root.id });
      roots.push(root);
    }
    const [r0, r1, r2] = roots as [Post, Post, Post];
    const ids = (response: { json: unknown }): string[] => ((response.json as Json).threads as Json[]).map((t) => t.id).filter((id: string) => roots.some((r) => r.id === id));
    const page = await threads(bob, '?per_page=2');
    assert.equal((page.json.threads as Json[]).length, 2);
    assert.deepEqual(ids(await threads(bob, `?before=${r2.id}`)).slice(0, 2), [r1.id, r0.id], 'newest reply first, before the cursor');
    assert.deepEqual(ids(await threads(bob, `?after=${r0.id}`)), [r1.id, r2.id], 'after: oldest first');
    assert.deepEqual(ids(await threads(bob, `?after=${'z'.repeat(26)}`)), [], 'an unknown cursor gives an empty page');
    assert.deepEqual(ids(await threads(bob, `?since=${Date.now() + 3_600_000}`)), []);

    await readAt(bob, r1.id, Date.now());
    const unreadOnly = await threads(bob, '?unread=true');
    assert.ok(!ids(unreadOnly).includes(r1.id));
    assert.equal(unreadOnly.json.total, unreadOnly.json.total_unread_threads, 'with unread, total is the unread count');

    const totals = await threads(bob, '?totalsOnly=true');
    assertJson(totals, 200);
    assert.equal(totals.json.threads, null);
    assert.ok(totals.json.total >= 3);
    const only = await threads(bob, '?threadsOnly=true');
    assert.deepEqual([only.json.total, only.json.total_unread_threads, only.json.total_unread_mentions], [0, 0, 0]);
    assert.ok((only.json.threads as Json[]).length >= 3);
    for (const perPage of ['-1', '0', '100000', 'x']) assertJson(await threads(bob, `?per_page=${perPage}`), 200);
  });

  it('when the input is bad or names someone else, then the reference\'s 400, 403 and 404', async () => {
    const channel = await newChannel(alice, world.team, 'P');
    const root = await postIn(alice, channel.id, 'private root');
    await postIn(alice, channel.id, 'private reply', { root_id: root.id });
    assertAppError(await threads(bob, '', alice.id), 403, 'api.context.permissions.app_error');
    assertAppError(await thread(bob, root.id, '', alice.id), 403, 'api.context.permissions.app_error');
    assertAppError(await follow(bob, root.id, 'PUT', alice.id), 403, 'api.context.permissions.app_error');
    assertAppError(await readAll(bob, alice.id), 403, 'api.context.permissions.app_error');
    assertAppError(await thread(bob, root.id), 403, 'api.context.permissions.app_error');
    assertAppError(await follow(bob, root.id, 'PUT'), 403, 'api.context.permissions.app_error');
    assertAppError(await readAt(bob, root.id, Date.now()), 403, 'api.context.permissions.app_error');
    assertAppError(await setUnread(bob, root.id, root.id), 403, 'api.context.permissions.app_error');
    assertAppError(await thread(bob, 'q'.repeat(26)), 403, 'api.context.permissions.app_error');
    const stranger = await outsider(url(), world.admin, 'stranger');
    assertAppError(await threads(stranger), 403, 'api.context.permissions.app_error');
    assertAppError(await readAll(stranger), 403, 'api.context.permissions.app_error');

    assertAppError(await threads(bob, '', 'not-an-id'), 400, 'api.context.invalid_url_param.app_error');
    assertAppError(await threads(bob, '', 'me', 'bad'), 400, 'api.context.invalid_url_param.app_error');
    assertAppError(await thread(bob, 'short'), 400, 'api.context.invalid_url_param.app_error');
    for (const since of ['abc', '-1', '1.5', '99999999999999999999999']) assertAppError(await threads(bob, `?since=${since}`), 400, 'api.context.invalid_body_param.app_error');
    assertAppError(await threads(bob, `?before=${root.id}&after=${root.id}`), 400, 'api.getThreadsForUser.bad_params');
    assertAppError(await threads(bob, '?totalsOnly=true&threadsOnly=true'), 400, 'api.getThreadsForUser.bad_only_params');
    assertAppError(await threads(bob, '?since=abc', alice.id), 403, 'api.context.permissions.app_error');
    for (const timestamp of ['0', '99999999999999999999']) assertAppError(await readAt(alice, root.id, timestamp), 400, 'api.context.invalid_url_param.app_error');
    for (const timestamp of ['abc', '-5']) assertAppError(await readAt(alice, root.id, timestamp), 404, 'api.context.404.app_error');
    assertAppError(await setUnread(alice, root.id, 'short'), 400, 'api.context.invalid_url_param.app_error');
    assertAppError(await setUnread(alice, root.id, 'q'.repeat(26)), 404, 'app.post.get.app_error');

    const adminView = await threads(world.admin as unknown as Actor, '', alice.id);
    assertJson(adminView, 200);
    assert.ok(listed(adminView, root.id), 'a system admin may read another user\'s threads');
  });

  it('when a follower leaves a private channel, then its threads leave their list and reading one is 403', async () => {
    const channel = await newChannel(alice, world.team, 'P');
    await alice.client.addToChannel(bob.id, channel.id);
    const root = await postIn(alice, channel.id, 'secret root');
    await postIn(bob, channel.id, 'secret reply', { root_id: root.id });
    assert.ok(listed(await threads(bob), root.id));
    await alice.client.removeFromChannel(bob.id, channel.id);
    const list = await threads(bob);
    assert.equal(listed(list, root.id), undefined);
    assertAppError(await thread(bob, root.id), 403, 'api.context.permissions.app_error');
    await postIn(alice, channel.id, `still there @${bob.username}?`, { root_id: root.id });
    assert.equal(listed(await threads(bob), root.id), undefined, 'a mention of a non-member does not bring it back');
  });

  it('when a thread is read with collapsedThreads, then its participants are real users with collapsedThreadsExtended and is_following is the caller\'s membership', async () => {
    const channel = await newChannel(alice, world.team);
    await alice.client.addToChannel(bob.id, channel.id);
    const root = await postIn(alice, channel.id, 'collapsed root');
    await postIn(bob, channel.id, 'collapsed reply', { root_id: root.id });
    const postThread = (query: string) => raw(url(), 'GET', `/api/v4/posts/${root.id}/thread${query}`, { token: alice.token });
    const extended = await postThread('?collapsedThreads=true&collapsedThreadsExtended=true');
    assertJson(extended, 200);
    const head = extended.json.posts[root.id];
    assert.equal(head.participants[0].id, bob.id);
    assert.equal(head.participants[0].username, bob.username);
    assert.equal(head.is_following, true);
    assert.deepEqual((await postThread('?collapsedThreads=true')).json.posts[root.id].participants, [{ id: bob.id }]);
    assertJson(await follow(alice, root.id, 'DELETE'), 200);
    assert.equal((await postThread('?collapsedThreads=true')).json.posts[root.id].is_following, false);
  });

  it('when a reply that mentioned someone is deleted before they read it, then their unread mention goes with it', async () => {
    const channel = await newChannel(alice, world.team);
    await alice.client.addToChannel(bob.id, channel.id);
    const root = await postIn(alice, channel.id, 'mention root');
    await postIn(bob, channel.id, 'plain reply', { root_id: root.id });
    const mention = await postIn(bob, channel.id, `hey @${alice.username}`, { root_id: root.id });
    const socket = await world.open(alice.token);
    assert.equal((await thread(alice, root.id)).json.unread_mentions, 1);
    await bob.client.deletePost(mention.id);
    const after = await thread(alice, root.id);
    assert.deepEqual([after.json.unread_mentions, after.json.reply_count, after.json.unread_replies], [0, 1, 1]);
    const updated = await socket.event('thread_updated', (f) => parsed<Json>(f, 'thread').id === root.id && parsed<Json>(f, 'thread').unread_mentions === 0);
    assert.deepEqual([updated.data?.previous_unread_mentions, updated.data?.previous_unread_replies], [0, 0]);
  });

  it('when an incoming webhook replies, then the thread is followed as for any reply: the root author and the members it mentions', async () => {
    const channel = await newChannel(alice, world.team);
    await alice.client.addToChannel(bob.id, channel.id);
    const root = await postIn(alice, channel.id, 'hook root');
    const hook = await createIncomingHook(url(), world.admin.token, { channel_id: channel.id, display_name: 'thread hook' });
    assertJson(await sendToHook(url(), hook.id, { text: `build done @${bob.username}`, root_id: root.id }, { query: '?wait=true' }), 200);
    const aliceThread = await eventually('alice follows the thread', async () => {
      const response = await thread(alice, root.id);
      return response.status === 200 ? response : undefined;
    });
    assert.deepEqual([aliceThread.json.reply_count, aliceThread.json.unread_replies, aliceThread.json.unread_mentions], [1, 1, 0]);
    const bobThread = await eventually('bob follows the thread', async () => {
      const response = await thread(bob, root.id);
      return response.status === 200 ? response : undefined;
    });
    assert.equal(bobThread.json.unread_mentions, 1);
  });

  it('when a reply says @channel, then every member follows the thread with an unread mention; @here alone makes nobody follow', async () => {
    const carol = await outsider(url(), world.admin, 'carolc');
    await world.admin.client.addToTeam(world.team.id, carol.id);
    const channel = await newChannel(alice, world.team);
    for (const actor of [bob, carol]) await alice.client.addToChannel(actor.id, channel.id);
    const root = await postIn(alice, channel.id, 'announcement root');
    await postIn(bob, channel.id, 'heads up @channel', { root_id: root.id });
    const carolThread = await thread(carol, root.id);
    assertJson(carolThread, 200);
    assert.deepEqual([carolThread.json.unread_mentions, carolThread.json.unread_replies], [1, 1]);
    assert.equal((await thread(alice, root.id)).json.unread_mentions, 1);
    assert.equal((await thread(bob, root.id)).json.unread_mentions, 0, 'not the author');
    const quiet = await postIn(alice, channel.id, 'quiet root');
    await postIn(bob, channel.id, 'anyone @here?', { root_id: quiet.id });
    assertAppError(await thread(carol, quiet.id), 404, 'app.user.get_thread_membership_for_user.not_found');
  });

  it('when a thread is set unread, then @here and attachment mentions count again, and in a DM every reply of the other user (countThreadMentions)', async () => {
    const channel = await newChannel(alice, world.team);
    await alice.client.addToChannel(bob.id, channel.id);
    const root = await postIn(alice, channel.id, 'count me');
    const here = await postIn(bob, channel.id, 'anyone @here?', { root_id: root.id });
    await postIn(bob, channel.id, 'see below', { root_id: root.id, props: { attachments: [{ text: `cc @${alice.username}` }] } as never });
    await postIn(bob, channel.id, 'plain', { root_id: root.id });
    const unread = await setUnread(alice, root.id, here.id);
    assertJson(unread, 200);
    assert.deepEqual([unread.json.unread_replies, unread.json.unread_mentions], [3, 2]);

    const direct = await alice.client.createDirectChannel([alice.id, bob.id]);
    const dmRoot = await postIn(alice, direct.id, 'dm root');
    const dmFirst = await postIn(bob, direct.id, 'no name here', { root_id: dmRoot.id });
    await postIn(bob, direct.id, 'nor here', { root_id: dmRoot.id });
    const dmUnread = await setUnread(alice, dmRoot.id, dmFirst.id);
    assertJson(dmUnread, 200);
    assert.deepEqual([dmUnread.json.unread_replies, dmUnread.json.unread_mentions], [2, 2]);
  });

  it('when a reply names a member only in an attachment\'s text, then that member follows the thread with an unread mention', async () => {
    const dave = await outsider(url(), world.admin, 'daveat');
    await world.admin.client.addToTeam(world.team.id, dave.id);
    const channel = await newChannel(alice, world.team);
    await alice.client.addToChannel(dave.id, channel.id);
    const root = await postIn(alice, channel.id, 'attachment root');
    await postIn(alice, channel.id, 'see below', { root_id: root.id, props: { attachments: [{ text: `for @${dave.username}` }] } as never });
    const daveThread = await thread(dave, root.id);
    assertJson(daveThread, 200);
    assert.deepEqual([daveThread.json.unread_mentions, daveThread.json.unread_replies], [1, 1]);
  });

  it('when CollapsedThreads is disabled, then the routes still answer as the reference (which does not check it)', async () => {
    await patchConfig(world.admin.client, { ServiceSettings: { CollapsedThreads: 'disabled' } });
    try {
      const channel = await newChannel(alice, world.team);
      await alice.client.addToChannel(bob.id, channel.id);
      const root = await postIn(alice, channel.id, 'disabled root');
      await postIn(bob, channel.id, 'disabled reply', { root_id: root.id });
      const list = await threads(alice);
      assertJson(list, 200);
      assert.equal((listed(list, root.id) as Json).reply_count, 1);
      assertJson(await follow(alice, root.id, 'DELETE'), 200);
      assert.equal(listed(await threads(alice), root.id), undefined);
    } finally {
      await patchConfig(world.admin.client, { ServiceSettings: { CollapsedThreads: 'always_on' } });
    }
  });
});

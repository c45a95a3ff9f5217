import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Post } from '@mattermost/types/posts';
import type { UserProfile } from '@mattermost/types/users';
import { expectClientError } from './support/client';
import { newChannel, outsider, postIn, type Actor } from './support/posts-fixtures';
import type { OfficialSocket } from './support/mm-websocket';
import { wsWorld, type WsWorld } from './support/ws-world';

/**
 * Issue 26's routes as a bot written for the reference calls them: the unmodified Client4 (its own query strings and
 * bodies, e.g. getUserThreads' empty `before=&after=` and `totalsOnly=false`) and the official WebSocketClient, with the
 * reference's JSON names and types checked on each answer.
 */
describe('issue 26 routes through the official client', { timeout: 300_000 }, () => {
  let world: WsWorld;
  let alice: Actor;
  let bob: Actor;
  let aliceWs: OfficialSocket;

  const isUser = (user: UserProfile | undefined): void => {
    assert.equal(typeof user?.id, 'string');
    assert.equal(typeof user?.username, 'string');
    assert.equal(typeof user?.delete_at, 'number');
    assert.equal((user as unknown as Record<string, unknown>).password, undefined);
  };

  before(async () => {
    world = await wsWorld();
    ({ alice, bob } = world);
    aliceWs = world.official(alice.token);
    await aliceWs.event('hello');
  });
  after(async () => {
    await world?.stop();
  });

  it('when a bot searches posts, users and channels, then the answers have the reference\'s shapes', async () => {
    const channel = await newChannel(alice, world.team);
    await alice.client.addToChannel(bob.id, channel.id);
    const root = await postIn(alice, channel.id, 'quarterly zeppelin review #planning');
    await postIn(bob, channel.id, 'zeppelin numbers attached', { root_id: root.id });

    const found = await bob.client.searchPostsWithParams(world.team.id, { terms: 'zeppelin', is_or_search: false, page: 0, per_page: 20, time_zone_offset: 3600, include_deleted_channels: false } as never);
    assert.equal(found.order.length, 2);
    assert.deepEqual(new Set(found.order.map((id) => found.posts[id]?.channel_id)), new Set([channel.id]));
    assert.ok(found.matches === null || typeof found.matches === 'object');
    const everywhere = await bob.client.searchPostsWithParams('', { terms: '#planning', is_or_search: false } as never);
    assert.deepEqual(everywhere.order, [root.id]);

    const users = await alice.client.searchUsers(bob.username, { team_id: world.team.id } as never);
    assert.deepEqual(users.map((u) => u.id), [bob.id]);
    isUser(users[0]);
    const auto = await alice.client.autocompleteUsers(bob.username.slice(0, 5), world.team.id, channel.id);
    assert.ok(auto.users.some((u) => u.id === bob.id));
    isUser(auto.users[0]);

    const channels = await bob.client.searchChannels(world.team.id, channel.name);
    assert.deepEqual(channels.map((c) => [c.id, c.type, c.team_id]), [[channel.id, 'O', world.team.id]]);
    const own = (await bob.client.searchAllChannels(channel.name, { nonAdminSearch: true } as never)) as unknown as { id: string }[];
    assert.deepEqual(own.map((c) => c.id), [channel.id]);
    await expectClientError(bob.client.searchAllChannels(channel.name, { page: 0, per_page: 10 } as never), 403, 'api.context.permissions.app_error');
    const paged = (await world.admin.client.searchAllChannels(channel.name, { page: 0, per_page: 10 } as never)) as unknown as { channels: { id: string }[]; total_count: number };
    assert.deepEqual([paged.channels.map((c) => c.id), paged.total_count], [[channel.id], 1]);

    isUser(await alice.client.getUserByEmail((await world.admin.client.getUser(bob.id)).email));
    // The distributed lane shares one server between files, so other files' custom emoji may be listed: shapes only.
    const emojis = await alice.client.getCustomEmojis();
    assert.ok(Array.isArray(emojis));
    for (const emoji of emojis) assert.deepEqual([typeof emoji.id, typeof emoji.name, typeof emoji.creator_id, typeof emoji.create_at, emoji.delete_at], ['string', 'string', 'string', 'number', 0]);
  });

  it('when a bot sets its status and pins a post, then statuses and pins answer as the reference and its socket gets status_change and post_edited', async () => {
    const channel = await newChannel(alice, world.team);
    await alice.client.addToChannel(bob.id, channel.id);
    const dndUntil = Math.floor(Date.now() / 1000) + 3600;
    const set = await alice.client.updateStatus({ user_id: alice.id, status: 'dnd', dnd_end_time: dndUntil } as never);
    assert.deepEqual([set.status, set.manual, typeof set.last_activity_at, set.dnd_end_time], ['dnd', true, 'number', dndUntil - (dndUntil % 60)]);
    const change = await aliceWs.event('status_change', (f) => f.data?.status === 'dnd');
    assert.deepEqual(change.data, { status: 'dnd', user_id: alice.id });
    assert.equal((await bob.client.getStatus(alice.id)).status, 'dnd');
    const both = await bob.client.getStatusesByIds([alice.id, bob.id]);
    assert.deepEqual(new Set(both.map((s) => s.user_id)), new Set([alice.id, bob.id]));
    await alice.client.updateStatus({ user_id: alice.id, status: 'online' } as never);

    const post = await postIn(alice, channel.id, 'build 42 is green');
    assert.deepEqual(await bob.client.pinPost(post.id), { status: 'OK' });
    const edited = await aliceWs.event('post_edited', (f) => (JSON.parse(String(f.data?.post)) as Post).id === post.id);
    const pinned = JSON.parse(String(edited.data?.post)) as Post;
    assert.deepEqual([pinned.is_pinned, pinned.edit_at], [true, 0]);
    const list = await alice.client.getPinnedPosts(channel.id);
    assert.deepEqual(list.order, [post.id]);
    assert.equal((await alice.client.getChannelStats(channel.id)).pinnedpost_count, 1);
    assert.deepEqual(await bob.client.unpinPost(post.id), { status: 'OK' });
    assert.deepEqual((await alice.client.getPinnedPosts(channel.id)).order, []);
  });

  it('when a bot lists, reads, unfollows and follows collapsed threads with Client4, then each call answers and its socket gets the thread events', async () => {
    const channel = await newChannel(alice, world.team);
    await alice.client.addToChannel(bob.id, channel.id);
    const root = await postIn(alice, channel.id, 'release checklist');
    await postIn(bob, channel.id, `@${alice.username} step one done`, { root_id: root.id });
    const updated = await aliceWs.event('thread_updated', (f) => (JSON.parse(String(f.data?.thread)) as { id: string }).id === root.id);
    assert.equal(typeof updated.data?.previous_unread_replies, 'number');

    const listed = await alice.client.getUserThreads(alice.id, world.team.id, {});
    const mine = listed.threads.find((t) => t.id === root.id);
    assert.deepEqual([mine?.reply_count, mine?.unread_replies, mine?.unread_mentions, mine?.post.id], [1, 1, 1, root.id]);
    assert.deepEqual([typeof listed.total, typeof listed.total_unread_threads, typeof listed.total_unread_mentions], ['number', 'number', 'number']);
    const extended = await alice.client.getUserThread(alice.id, world.team.id, root.id, true);
    assert.deepEqual(extended.participants.map((p) => [p.id, typeof (p as UserProfile).username]), [[bob.id, 'string']]);

    const read = await alice.client.updateThreadReadForUser(alice.id, world.team.id, root.id, Date.now());
    assert.deepEqual([read.id, read.unread_replies, read.unread_mentions], [root.id, 0, 0]);
    await aliceWs.event('thread_read_changed', (f) => f.data?.thread_id === root.id);
    assert.deepEqual(await alice.client.updateThreadsReadForUser(alice.id, world.team.id), { status: 'OK' });

    assert.deepEqual(await alice.client.updateThreadFollowForUser(alice.id, world.team.id, root.id, false), { status: 'OK' });
    const unfollowed = await aliceWs.event('thread_follow_changed', (f) => f.data?.thread_id === root.id && f.data?.state === false);
    assert.equal(unfollowed.data?.reply_count, 1);
    await expectClientError(alice.client.getUserThread(alice.id, world.team.id, root.id), 404, 'app.user.get_threads_for_user.not_found');
    await alice.client.updateThreadFollowForUser(alice.id, world.team.id, root.id, true);
    await aliceWs.event('thread_follow_changed', (f) => f.data?.thread_id === root.id && f.data?.state === true);
    assert.equal((await alice.client.getUserThread(alice.id, world.team.id, root.id)).id, root.id);
    await expectClientError(bob.client.getUserThreads(alice.id, world.team.id, {}), 403, 'api.context.permissions.app_error');
  });

  it('when a bot makes a group channel, updates a channel and views it, then Client4 gets the reference\'s channel and alice\'s socket multiple_channels_viewed', async () => {
    const carol = await outsider(world.target.url, world.admin, 'oc');
    const group = await alice.client.createGroupChannel([alice.id, bob.id, carol.id]);
    assert.deepEqual([group.type, group.team_id, /^[0-9a-f]{40}$/.test(group.name)], ['G', '', true]);
    assert.equal((await bob.client.createGroupChannel([carol.id, alice.id, bob.id])).id, group.id);

    const channel = await newChannel(alice, world.team);
    const renamed = await alice.client.updateChannel({ ...channel, display_name: 'Renamed by Client4', header: 'new header' });
    assert.deepEqual([renamed.display_name, renamed.header, renamed.name], ['Renamed by Client4', 'new header', channel.name]);
    await alice.client.addToChannel(bob.id, channel.id);
    await postIn(bob, channel.id, 'something to read');
    const viewed = await alice.client.viewMyChannel(channel.id);
    const times = (viewed as unknown as { last_viewed_at_times: Record<string, number> }).last_viewed_at_times;
    const event = await aliceWs.event('multiple_channels_viewed', (f) => (f.data?.channel_times as Record<string, number> | undefined)?.[channel.id] !== undefined);
    assert.deepEqual(event.data?.channel_times, { [channel.id]: times[channel.id] });
  });
});

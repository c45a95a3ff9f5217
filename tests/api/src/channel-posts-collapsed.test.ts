import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Post, PostList } from '@mattermost/types/posts';
import type { Team } from '@mattermost/types/teams';
import { givenAdminWorld } from './support/admin-world';
import type { AdminSession } from './support/fixtures';
import { assertJson, raw } from './support/http';
import { newChannel, newTeam, postIn, teamMember, type Actor } from './support/posts-fixtures';
import type { Target } from './support/target';

/**
 * `collapsedThreads=true` on `GET /channels/{id}/posts` and on `GET /users/{id}/channels/{id}/posts/unread` (what the
 * web app sends while CollapsedThreads is on, the default `always_on`): root posts only, each with its thread's
 * reply_count, last_reply_at and participants (users with collapsedThreadsExtended), as the reference.
 */
describe('channel posts with collapsed threads', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;
  let team: Team;
  let alice: Actor;
  let bob: Actor;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
    team = await newTeam(admin);
    alice = await teamMember(target.url, admin, team, 'ca');
    bob = await teamMember(target.url, admin, team, 'cb');
  });
  after(async () => {
    await target?.stop();
  });

  const messages = (list: PostList): string[] => list.order.map((id) => list.posts[id]?.message ?? '?');
  const reply = (actor: Actor, root: Post, message: string): Promise<Post> => postIn(actor, root.channel_id, message, { root_id: root.id });
  type ThreadPost = Omit<Post, 'participants' | 'is_following'> & { participants: ({ id: string; username?: string } | null)[] | null; is_following?: boolean };
  const threadPost = (list: PostList, id: string): ThreadPost => list.posts[id] as ThreadPost;

  it('when a channel is read with collapsedThreads, then only its roots come back, each with its thread fields; without the flag the replies are there', async () => {
    const channel = await newChannel(alice, team);
    await alice.client.addToChannel(bob.id, channel.id);
    const a = await postIn(alice, channel.id, 'root a');
    await reply(bob, a, 'a reply 1');
    const lastOfA = await reply(alice, a, 'a reply 2');
    const b = await postIn(alice, channel.id, 'root b');
    const c = await postIn(bob, channel.id, 'root c');
    await reply(bob, c, 'c reply 1');

    const flat = await alice.client.getPosts(channel.id, 0, 60, true, false, false);
    assert.deepEqual(messages(flat), ['c reply 1', 'root c', 'root b', 'a reply 2', 'a reply 1', 'root a']);

    const collapsed = await alice.client.getPosts(channel.id, 0, 60, true, true, false);
    assert.deepEqual(messages(collapsed), ['root c', 'root b', 'root a']);
    assert.deepEqual(Object.keys(collapsed.posts).sort(), [a.id, b.id, c.id].sort(), 'no reply in posts either');
    const rootA = threadPost(collapsed, a.id);
    assert.equal(rootA.reply_count, 2);
    assert.equal(rootA.last_reply_at, lastOfA.create_at);
    assert.deepEqual(rootA.participants?.map((p) => p?.id), [bob.id, alice.id], 'reply authors in order of first reply');
    assert.equal(rootA.is_following, true, 'alice wrote the root and replied: she follows it');
    assert.deepEqual(threadPost(collapsed, c.id).participants?.map((p) => p?.id), [bob.id]);
    const rootB = threadPost(collapsed, b.id);
    assert.deepEqual([rootB.reply_count, rootB.participants, 'is_following' in rootB], [0, null, false], 'a root without replies has no thread');
    assert.deepEqual([collapsed.next_post_id, collapsed.prev_post_id], ['', '']);

    const extended = await alice.client.getPosts(channel.id, 0, 60, true, true, true);
    assert.deepEqual(threadPost(extended, a.id).participants?.map((p) => p?.username), [bob.username, alice.username], 'participants as users');
    // Go's ParseBool on this route: `1` is true too.
    const one = await raw(target.url, 'GET', `/api/v4/channels/${channel.id}/posts?collapsedThreads=1`, { token: alice.token });
    assertJson(one, 200);
    assert.deepEqual((one.json as PostList).order, [c.id, b.id, a.id]);
  });

  it('when roots are paged with collapsedThreads (page, before, after, since), then the pages count roots only and next/prev name roots', async () => {
    const channel = await newChannel(alice, team);
    const r1 = await postIn(alice, channel.id, 'r1');
    for (let i = 0; i < 5; i++) await reply(alice, r1, `r1 reply ${i}`);
    const second = await postIn(alice, channel.id, 'r2');
    await reply(alice, second, 'r2 reply');
    const third = await postIn(alice, channel.id, 'r3');
    const fourth = await postIn(alice, channel.id, 'r4');
    for (let i = 0; i < 3; i++) await reply(alice, third, `r3 reply ${i}`);

    const first = await alice.client.getPosts(channel.id, 0, 2, true, true, false);
    assert.deepEqual(messages(first), ['r4', 'r3']);
    assert.deepEqual([first.next_post_id, first.prev_post_id], ['', second.id]);
    const next = await alice.client.getPosts(channel.id, 1, 2, true, true, false);
    assert.deepEqual(messages(next), ['r2', 'r1']);
    assert.deepEqual([next.next_post_id, next.prev_post_id], [third.id, '']);

    const older = await alice.client.getPostsBefore(channel.id, fourth.id, 0, 2, true, true, false);
    assert.deepEqual(messages(older), ['r3', 'r2']);
    assert.deepEqual([older.next_post_id, older.prev_post_id], [fourth.id, r1.id]);
    const newer = await alice.client.getPostsAfter(channel.id, r1.id, 0, 2, true, true, false);
    assert.deepEqual(messages(newer), ['r3', 'r2']);
    assert.deepEqual([newer.next_post_id, newer.prev_post_id], [fourth.id, r1.id]);
    const flatNewer = await alice.client.getPostsAfter(channel.id, r1.id, 0, 2, true, false, false);
    assert.deepEqual(messages(flatNewer), ['r1 reply 1', 'r1 reply 0'], 'without the flag the replies count');

    // since: roots updated after the time (a reply bumps its root), live ones only; without the flag replies and deleted posts too.
    const gone = await postIn(alice, channel.id, 'gone');
    await alice.client.deletePost(gone.id);
    const since = r1.create_at;
    const sinceCollapsed = await alice.client.getPostsSince(channel.id, since, true, true, false);
    assert.deepEqual(messages(sinceCollapsed), ['r4', 'r3', 'r2', 'r1'], 'r1 is in: its replies moved its update_at');
    assert.equal(threadPost(sinceCollapsed, third.id).reply_count, 3);
    const sinceFlat = await alice.client.getPostsSince(channel.id, since, true, false, false);
    assert.ok(sinceFlat.order.includes(gone.id) && sinceFlat.order.length > 5, 'without the flag: replies and the deleted post');
  });

  it('when a member opens a channel with unreads and collapsedThreads, then the list around the first unread root holds roots only', async () => {
    const channel = await newChannel(alice, team);
    await alice.client.addToChannel(bob.id, channel.id);
    const seen = await postIn(alice, channel.id, 'seen');
    await bob.client.viewMyChannel(channel.id);
    await reply(alice, seen, 'reply to seen');
    const fresh = await postIn(alice, channel.id, 'fresh');
    await reply(bob, fresh, 'fresh reply');
    const last = await postIn(alice, channel.id, 'last');

    const flat = await bob.client.getPostsUnread(channel.id, bob.id, 60, 60, true, false, false);
    assert.deepEqual(messages(flat), ['last', 'fresh reply', 'fresh', 'reply to seen', 'seen']);
    const collapsed = await bob.client.getPostsUnread(channel.id, bob.id, 60, 60, true, true, true);
    assert.deepEqual(messages(collapsed), ['last', 'fresh', 'seen']);
    assert.deepEqual(threadPost(collapsed, fresh.id).participants?.map((p) => p?.username), [bob.username]);
    assert.equal(threadPost(collapsed, seen.id).reply_count, 1);
    // The first unread is a root: a limit_after of 1 keeps just it and limit_before older roots; next names the root after it.
    const narrow = await raw(target.url, 'GET', `/api/v4/users/${bob.id}/channels/${channel.id}/posts/unread?limit_before=0&limit_after=1&collapsedThreads=true`, { token: bob.token });
    assertJson(narrow, 200);
    const list = narrow.json as PostList;
    assert.deepEqual(list.order, [fresh.id]);
    assert.deepEqual([list.next_post_id, list.prev_post_id], [last.id, seen.id]);
  });
});

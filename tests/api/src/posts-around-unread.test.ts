import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Post } from '@mattermost/types/posts';
import type { Team } from '@mattermost/types/teams';
import { expectClientError } from './support/client';
import { givenAdminWorld } from './support/admin-world';
import type { AdminSession } from './support/fixtures';
import { assertAppError, assertJson, raw } from './support/http';
import { newChannel, newTeam, outsider, postIn, teamMember, type Actor } from './support/posts-fixtures';
import type { Target } from './support/target';

/** `GET /users/{user_id}/channels/{channel_id}/posts/unread`: what the web app and Client4.getPostsUnread load on opening a channel. */
describe('posts around the last unread', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;
  let team: Team;
  let alice: Actor;
  let bob: Actor;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
    team = await newTeam(admin);
    alice = await teamMember(target.url, admin, team, 'ua');
    bob = await teamMember(target.url, admin, team, 'ub');
  });
  after(async () => {
    await target?.stop();
  });

  const messages = (list: { order: string[]; posts: Record<string, Post> }): string[] => list.order.map((id) => list.posts[id]?.message ?? '?');

  it('when a member read up to a post, then the list is centred on the first unread: limit_before older, limit_after - 1 newer, newest first, with next/prev outside it', async () => {
    const channel = await newChannel(alice, team);
    await alice.client.addToChannel(bob.id, channel.id);
    const read: Post[] = [];
    for (const n of [1, 2, 3, 4]) read.push(await postIn(alice, channel.id, `read ${n}`));
    await bob.client.viewMyChannel(channel.id);
    const unread: Post[] = [];
    for (const n of [1, 2, 3, 4]) unread.push(await postIn(alice, channel.id, `unread ${n}`));

    const list = await bob.client.getPostsUnread(channel.id, bob.id, 3, 2);
    assert.deepEqual(messages(list), ['unread 3', 'unread 2', 'unread 1', 'read 4', 'read 3']);
    assert.equal(list.next_post_id, unread[3]?.id);
    assert.equal(list.prev_post_id, read[1]?.id);

    const wide = await bob.client.getPostsUnread(channel.id, 'me', 60, 60);
    assert.deepEqual(messages(wide), ['unread 4', 'unread 3', 'unread 2', 'unread 1', 'read 4', 'read 3', 'read 2', 'read 1']);
    assert.deepEqual([wide.next_post_id, wide.prev_post_id], ['', '']);
    assert.equal(wide.posts[unread[0]?.id ?? '']?.channel_id, channel.id);
  });

  it('when nothing is unread or the channel was never viewed, then the newest limit_before posts, as the reference falls back to the first page', async () => {
    const channel = await newChannel(alice, team);
    await alice.client.addToChannel(bob.id, channel.id);
    for (const n of [1, 2, 3]) await postIn(alice, channel.id, `p${n}`);
    const all = await raw(target.url, 'GET', `/api/v4/users/${bob.id}/channels/${channel.id}/posts/unread?limit_before=2&limit_after=5`, { token: bob.token });
    assertJson(all, 200);
    assert.equal((await bob.client.getChannelMember(channel.id, bob.id)).last_viewed_at, 0, 'a new member has viewed nothing yet');
    const list = all.json as { order: string[]; posts: Record<string, Post>; next_post_id: string; prev_post_id: string };
    assert.deepEqual(messages(list), ['p3', 'p2']);
    assert.deepEqual([list.next_post_id === '', list.prev_post_id !== ''], [true, true]);
    await bob.client.viewMyChannel(channel.id);
    const caughtUp = await bob.client.getPostsUnread(channel.id, bob.id, 5, 2);
    assert.deepEqual(messages(caughtUp), ['p3', 'p2']);
    assert.equal(caughtUp.next_post_id, '');
    assert.notEqual(caughtUp.prev_post_id, '');
  });

  it('when the caller is not allowed, not a member or limit_after is 0, then 403, 404 and 400 as the reference', async () => {
    const open = await newChannel(alice, team);
    const secret = await newChannel(alice, team, 'P');
    const path = (user: string, channel: string, query = ''): string => `/api/v4/users/${user}/channels/${channel}/posts/unread${query}`;
    await expectClientError(bob.client.getPostsUnread(open.id, alice.id), 403, 'api.context.permissions.app_error');
    assertAppError(await raw(target.url, 'GET', path(bob.id, secret.id), { token: bob.token }), 403, 'api.context.permissions.app_error');
    assertAppError(await raw(target.url, 'GET', path(bob.id, open.id), { token: bob.token }), 404, 'app.channel.get_member.missing.app_error');
    assertAppError(await raw(target.url, 'GET', path(alice.id, open.id, '?limit_after=0'), { token: alice.token }), 400, 'api.context.invalid_url_param.app_error');
    assertAppError(await raw(target.url, 'GET', path(alice.id, 'bad', ''), { token: alice.token }), 400, 'api.context.invalid_url_param.app_error');
    for (const query of ['?limit_before=-4&limit_after=abc', '?limit_before=99999&limit_after=99999', '?limit_after=%00']) {
      assertJson(await raw(target.url, 'GET', path(alice.id, open.id, query), { token: alice.token }), 200);
    }
    const carol = await outsider(target.url, admin, 'uc');
    assertAppError(await raw(target.url, 'GET', path(carol.id, open.id), { token: carol.token }), 403, 'api.context.permissions.app_error');
    assertAppError(await raw(target.url, 'GET', path(alice.id, open.id)), 401, 'api.context.session_expired.app_error');
  });
});

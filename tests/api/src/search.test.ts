import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Team } from '@mattermost/types/teams';
import type { AdminSession } from './support/fixtures';
import { givenAdminWorld } from './support/admin-world';
import { assertAppError, assertJson, raw } from './support/http';
import { newChannel, newTeam, outsider, postIn, teamMember, type Actor } from './support/posts-fixtures';
import type { Target } from './support/target';

interface SearchAnswer {
  order: string[];
  posts: Record<string, { id: string; message: string; channel_id: string }>;
  matches: Record<string, string[]> | null;
  next_post_id: string;
  prev_post_id: string;
}

/** A word no other test (or earlier run on a shared server) has written. */
const unique = (prefix: string): string => `${prefix}${randomBytes(5).toString('hex').replace(/[0-9]/g, (d) => 'ghijklmnop'[Number(d)] ?? 'q')}`;

const today = (offsetSeconds = 0): string => new Date(Date.now() + offsetSeconds * 1000).toISOString().slice(0, 10);
const dayBefore = (date: string): string => new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

describe('post search', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;
  let team: Team;
  let alice: Actor;
  let bob: Actor;
  let channelId: string;

  /** `teamId` null: the all-teams form. */
  const search = async (actor: Actor, terms: unknown, extra: Record<string, unknown> = {}, teamId: string | null = team.id) => {
    const path = teamId === null ? '/api/v4/posts/search' : `/api/v4/teams/${teamId}/posts/search`;
    return raw(target.url, 'POST', path, { token: actor.token, body: { terms, is_or_search: false, ...extra } });
  };
  const found = async (actor: Actor, terms: string, extra: Record<string, unknown> = {}, teamId: string | null = team.id): Promise<string[]> => {
    const response = await search(actor, terms, extra, teamId);
    assertJson(response, 200);
    return (response.json as SearchAnswer).order;
  };

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
    team = await newTeam(admin);
    alice = await teamMember(target.url, admin, team, 'sa');
    bob = await teamMember(target.url, admin, team, 'sb');
    channelId = (await newChannel(alice, team)).id;
    await bob.client.addToChannel(bob.id, channelId);
  });
  after(async () => {
    await target?.stop();
  });

  it('when words are searched, then the PostList of matching posts comes back newest first with matches, wire-shaped, uncached', async () => {
    const w = unique('deploy');
    const first = await postIn(alice, channelId, `The ${w} is RUNNING now`);
    const second = await postIn(bob, channelId, `${w} runs again`);
    await postIn(bob, channelId, `${w} only`);
    const response = await search(alice, `${w} run`);
    assertJson(response, 200);
    assert.equal(response.headers.get('cache-control'), 'no-cache, no-store, must-revalidate');
    const body = response.json as SearchAnswer;
    assert.deepEqual(body.order, [second.id, first.id]);
    assert.equal(body.posts[first.id]?.message, `The ${w} is RUNNING now`);
    assert.equal(body.next_post_id, '');
    assert.equal(body.prev_post_id, '');
    assert.deepEqual(body.matches?.[first.id]?.sort(), ['RUNNING', w].sort());
    // The official client reads the same answer.
    const viaClient = await alice.client.searchPostsWithParams(team.id, { terms: `${w} run`, is_or_search: false, page: 0, per_page: 20, time_zone_offset: 0, include_deleted_channels: false });
    assert.deepEqual(viaClient.order, [second.id, first.id]);
  });

  it('when phrases, exclusions, prefixes, OR and hashtags are used, then each narrows or widens as the reference', async () => {
    const w = unique('pipe');
    const tag = unique('rel');
    const a = await postIn(alice, channelId, `${w} build green`);
    const b = await postIn(alice, channelId, `green ${w} build`);
    const c = await postIn(alice, channelId, `${w}line broken #${tag}`);
    const d = await postIn(alice, channelId, `nothing here #${tag}-2`);
    assert.deepEqual(await found(alice, `"${w} build"`), [b.id, a.id]);
    assert.deepEqual(await found(alice, `"build green"`).then((ids) => ids.filter((id) => [a.id, b.id].includes(id))), [a.id]);
    assert.deepEqual(await found(alice, `${w} -green`), []);
    assert.deepEqual(await found(alice, `${w}*`), [c.id, b.id, a.id]);
    assert.deepEqual(await found(alice, `#${tag}`), [c.id]);
    assert.deepEqual(await found(alice, `#${tag.toUpperCase()}-2`), [d.id]);
    assert.deepEqual(await found(alice, `${w}line ${w}`, { is_or_search: true }), [c.id, b.id, a.id]);
    assert.deepEqual(await found(alice, `${w}line ${w}`), []);
    // Plain words and a tag: two searches merged.
    assert.deepEqual(await found(alice, `${w} #${tag}-2`), [d.id, b.id, a.id]);
  });

  it('when from:, in: and dates are given, then they filter; the day follows time_zone_offset', async () => {
    const w = unique('filt');
    const other = await newChannel(alice, team);
    const byAlice = await postIn(alice, channelId, `${w} one`);
    const byBob = await postIn(bob, channelId, `${w} two`);
    const elsewhere = await postIn(alice, other.id, `${w} three`);
    assert.deepEqual(await found(alice, `from:${bob.username} ${w}`), [byBob.id]);
    assert.deepEqual(await found(alice, `from: ${alice.username} ${w}`), [elsewhere.id, byAlice.id]);
    assert.deepEqual(await found(alice, `-from:${alice.username} ${w}`), [byBob.id]);
    assert.deepEqual(await found(alice, `in:${other.name} ${w}`), [elsewhere.id]);
    assert.deepEqual(await found(alice, `-in:${other.name} ${w}`), [byBob.id, byAlice.id]);
    assert.deepEqual(await found(alice, `from:${alice.username} in:${other.name}`), [elsewhere.id]);
    const day = today();
    assert.deepEqual(await found(alice, `on:${day} ${w}`), [elsewhere.id, byBob.id, byAlice.id]);
    assert.deepEqual(await found(alice, `before:${day} ${w}`), []);
    assert.deepEqual(await found(alice, `after:${dayBefore(day)} ${w}`), [elsewhere.id, byBob.id, byAlice.id]);
    assert.deepEqual(await found(alice, `after:${day} ${w}`), []);
    assert.deepEqual(await found(alice, `-on:${day} ${w}`), []);
    // 14 hours east: "today" there is the local date; the UTC date of 14 h ago may be another day.
    const offset = 14 * 3600;
    assert.deepEqual(await found(alice, `on:${today(offset)} ${w}`, { time_zone_offset: offset }), [elsewhere.id, byBob.id, byAlice.id]);
  });

  it('when in:@user or in:@a,b,c is given, then the DM (created by the search when missing, as the reference) or that exact group is searched', async () => {
    const w = unique('dmgm');
    const carol = await teamMember(target.url, admin, team, 'sc');
    const dmName = [alice.id, carol.id].sort().join('__');
    const hasDm = async (): Promise<boolean> => (await alice.client.getMyChannels(team.id)).some((c) => c.name === dmName);
    assert.equal(await hasDm(), false);
    assert.deepEqual(await found(alice, `in:@${carol.username} ${w}`), []);
    assert.equal(await hasDm(), true, 'in:@user created the DM');
    const direct = (await alice.client.getMyChannels(team.id)).find((c) => c.name === dmName);
    const inDm = await postIn(carol, direct?.id ?? '', `${w} direct`);
    const group = await alice.client.createGroupChannel([alice.id, bob.id, carol.id]);
    const inGroup = await postIn(bob, group.id, `${w} group`);
    const inTeam = await postIn(alice, channelId, `${w} team`);
    assert.deepEqual(await found(alice, `in:@${carol.username} ${w}`), [inDm.id]);
    assert.deepEqual(await found(alice, `in:~@${carol.username} ${w}`), [inDm.id]);
    const members = [alice.username, bob.username, carol.username];
    assert.deepEqual(await found(alice, `in:@${members.join(',')} ${w}`), [inGroup.id]);
    assert.deepEqual(await found(alice, `in:@${[...members].reverse().join(',')} ${w}`), [inGroup.id]);
    assert.deepEqual(await found(alice, `in:@${bob.username},${carol.username} ${w}`), [], 'not exactly the group\'s users');
    assert.deepEqual(await found(alice, `in:@${members.join(',')},nosuchuser${w} ${w}`), []);
    assert.deepEqual(await found(alice, `-in:@${members.join(',')} -in:@${carol.username} ${w}`), [inTeam.id]);
    // An outsider names the group: it is not theirs, so nothing (and no channel is made for them).
    const eve = await teamMember(target.url, admin, team, 'se');
    assert.deepEqual(await found(eve, `in:@${members.join(',')} ${w}`), []);
    assert.deepEqual(await found(eve, `${w}`), []);
  });

  it('when a post is edited or deleted, then search follows at once', async () => {
    const w = unique('edit');
    const v = unique('edited');
    const post = await postIn(alice, channelId, `${w} before`);
    assert.deepEqual(await found(alice, w), [post.id]);
    await alice.client.patchPost({ id: post.id, message: `${v} after` });
    assert.deepEqual(await found(alice, w), []);
    assert.deepEqual(await found(alice, v), [post.id]);
    await alice.client.deletePost(post.id);
    assert.deepEqual(await found(alice, v), []);
  });

  it('when a user is not a member of a private (or public) channel, then its posts are never found, in any form, and membership changes apply at once', async () => {
    const w = unique('secret');
    const tag = unique('hidden');
    const priv = await newChannel(alice, team, 'P');
    const open = await newChannel(alice, team, 'O');
    const hidden = await postIn(alice, priv.id, `${w} payroll #${tag}`);
    const openPost = await postIn(alice, open.id, `${w} public but not joined`);
    const forms = [w, `"${w} payroll"`, `${w.slice(0, 6)}*`, `#${tag}`, `in:${priv.name}`, `in:${priv.name} ${w}`, `from:${alice.username}`, `from:${alice.username} ${w}`, `payroll`, `-nothing ${w}`];
    const assertNeverFound = async (who: Actor, ids: string[]): Promise<void> => {
      for (const terms of forms) {
        for (const teamId of [team.id, null]) {
          for (const or of [false, true]) {
            const got = await found(who, terms, { is_or_search: or }, teamId);
            for (const id of ids) assert.ok(!got.includes(id), `${terms} (${teamId ?? 'all teams'}, or=${or}) found ${id}`);
          }
        }
      }
    };
    await assertNeverFound(bob, [hidden.id, openPost.id]);
    assert.deepEqual(await found(alice, w), [openPost.id, hidden.id]);
    await alice.client.addToChannel(bob.id, priv.id);
    assert.deepEqual(await found(bob, w), [hidden.id]);
    await alice.client.removeFromChannel(bob.id, priv.id);
    await assertNeverFound(bob, [hidden.id]);
    // A user outside the team gets 403 for the team, and nothing from the all-teams search.
    const stranger = await outsider(target.url, admin, 'so');
    assertAppError(await search(stranger, w), 403, 'api.context.permissions.app_error');
    assert.deepEqual(await found(stranger, w, {}, null), []);
  });

  it('when the all-teams search is used, then the caller\'s channels of every team are searched', async () => {
    const w = unique('all');
    const team2 = await newTeam(admin);
    await admin.client.addToTeam(team2.id, alice.id);
    const c2 = await newChannel(alice, team2);
    const p1 = await postIn(alice, channelId, `${w} here`);
    const p2 = await postIn(alice, c2.id, `${w} there`);
    assert.deepEqual(await found(alice, w, {}, null), [p2.id, p1.id]);
    assert.deepEqual(await found(alice, w), [p1.id]);
  });

  it('when the input is bad or hostile, then the reference\'s error or an empty 200, never a 5xx and never other channels', async () => {
    const w = unique('bad');
    const priv = await newChannel(alice, team, 'P');
    await postIn(alice, priv.id, `${w} private text`);
    const mine = await postIn(bob, channelId, `${w} near regex where`);
    assertAppError(await search(bob, ''), 400, 'api.context.invalid_body_param.app_error');
    assertAppError(await raw(target.url, 'POST', `/api/v4/teams/${team.id}/posts/search`, { token: bob.token, body: {} }), 400, 'api.context.invalid_body_param.app_error');
    assertAppError(await raw(target.url, 'POST', `/api/v4/teams/${team.id}/posts/search`, { token: bob.token, rawBody: '{"terms":' }), 400, 'api.post.search_posts.invalid_body.app_error');
    assertAppError(await search(bob, 5), 400, 'api.post.search_posts.invalid_body.app_error');
    assertAppError(await search(bob, w, { modifier: 'nope' }), 400, 'api.context.invalid_body_param.app_error');
    const hostile = [
      'x'.repeat(10_000),
      `${w} `.repeat(2_000),
      'the and of to',
      `"${w} unbalanced`,
      `in:${priv.name} ${w}`,
      `from:nobody-${w} ${w}`,
      `on:2026-02-30 ${w}`,
      `before:someday ${w}`,
      '"',
      '*',
      'NEAR(a b)',
      '^',
      '$where',
      '{"$regex": ".*"}',
      `${w}" OR "1"="1`,
      `${w} OR *`,
      'message:*',
    ];
    for (const terms of hostile) {
      const response = await search(bob, terms);
      assert.equal(response.status, 200, `${terms.slice(0, 40)}: ${response.status} ${response.text.slice(0, 200)}`);
      const body = response.json as SearchAnswer;
      for (const id of body.order) assert.equal(body.posts[id]?.channel_id, channelId, `${terms.slice(0, 40)} reached another channel`);
    }
    assert.deepEqual(await found(bob, `"${w} unbalanced`), []);
    assert.deepEqual(await found(bob, `"${w}`), [mine.id]);
    assert.deepEqual(await found(bob, `${w} NEAR`), [mine.id]);
    assert.deepEqual(await found(bob, `${w} {$regex}`), [mine.id]);
    assert.deepEqual(await found(bob, 'the and of to'), []);
    assert.deepEqual(await found(bob, w, { page: 1 }), []);
    assert.deepEqual(await found(bob, w, { modifier: 'files' }), []);
    const operatorBody = await raw(target.url, 'POST', `/api/v4/teams/${team.id}/posts/search`, { token: bob.token, body: { terms: { $regex: '.*' } } });
    assertAppError(operatorBody, 400, 'api.post.search_posts.invalid_body.app_error');
  });
});

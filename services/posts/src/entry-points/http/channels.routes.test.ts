import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Topics } from '@switchyard/contracts';
import { assertError } from '../../test-support/assert-error';
import { postsHarness, type PostsHarness } from '../../test-support/http-harness';

describe('channels routes', () => {
  let h: PostsHarness;
  before(async () => {
    h = await postsHarness();
  });
  after(() => h.stop());

  it('when a channel is created, joined, left and archived, then channels.events carries each change keyed by channel id', async () => {
    const team = h.team();
    const alice = h.user({ teamId: team });
    const bob = h.user({ teamId: team });
    const channel = await h.channel(alice, team);
    await h.join(channel.id, bob);
    assert.equal((await h.request('DELETE', `/api/v4/channels/${channel.id}/members/${bob.id}`, { as: bob })).statusCode, 200);
    assert.equal((await h.request('DELETE', `/api/v4/channels/${channel.id}`, { as: alice })).statusCode, 200);
    const events = h.sink.of(Topics.channelsEvents).filter((e) => e.key === channel.id);
    assert.deepEqual(
      events.map((e) => `${e.value.type}:${String(e.value.payload.user_id ?? '')}`),
      ['channel.created:', `channel.member_added:${alice.id}`, `channel.member_added:${bob.id}`, `channel.member_removed:${bob.id}`, 'channel.deleted:'],
    );
    const payloadChannel = events[0]?.value.payload.channel as { team_name: string; name: string };
    assert.equal(payloadChannel.team_name, h.users.teams.get(team));
    assert.equal(payloadChannel.name, channel.name);
  });

  it('when the team does not exist for an admin, then 404; when the caller has no identity, then 401', async () => {
    const admin = h.user({ roles: 'system_user system_admin' });
    const res = await h.request('POST', '/api/v4/channels', { as: admin, body: { team_id: 'a'.repeat(26), name: 'x1', display_name: 'x', type: 'O' } });
    assertError(res, 404, 'app.team.get.find.app_error');
    assertError(await h.request('GET', `/api/v4/channels/${'a'.repeat(26)}`), 401, 'api.context.session_expired.app_error');
  });

  it('when a body is not JSON or is too large, then 400 / 413 with error ids', async () => {
    const team = h.team();
    const alice = h.user({ teamId: team });
    const bad = await h.request('POST', '/api/v4/channels', { as: alice, raw: '{nope' });
    assert.equal(bad.statusCode, 400);
    assert.equal((bad.json() as { id: string }).id, 'api.context.invalid_body_param.app_error');
    const big = await h.request('POST', '/api/v4/posts', { as: alice, raw: JSON.stringify({ channel_id: 'a'.repeat(26), message: 'x'.repeat(400_000) }) });
    assert.equal(big.statusCode, 413);
    assert.equal((big.json() as { id: string }).id, 'api.context.request_body_too_large.app_error');
  });
});

describe('user channel lists', () => {
  it('when a user lists their channels of a team, then the team\'s channels they belong to plus their DMs; others\' lists are 403', async () => {
    const h = await postsHarness();
    try {
      const team = h.team();
      const other = h.team();
      const alice = h.user({ teamId: team });
      const bob = h.user({ teamId: team });
      h.users.join(other, alice.id);
      const mine = await h.channel(alice, team);
      await h.channel(bob, team);
      const elsewhere = await h.channel(alice, other);
      const dm = (await h.request('POST', '/api/v4/channels/direct', { as: alice, body: [alice.id, bob.id] })).json() as { id: string };
      const res = await h.request('GET', `/api/v4/users/me/teams/${team}/channels`, { as: alice });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual((res.json() as { id: string }[]).map((c) => c.id).sort(), [mine.id, dm.id].sort());
      const members = (await h.request('GET', `/api/v4/users/${alice.id}/teams/${team}/channels/members`, { as: alice })).json() as { channel_id: string }[];
      assert.deepEqual(members.map((m) => m.channel_id).sort(), [mine.id, dm.id].sort());
      const all = (await h.request('GET', `/api/v4/users/${alice.id}/channels`, { as: alice })).json() as { id: string }[];
      assert.deepEqual(all.map((c) => c.id).sort(), [mine.id, dm.id, elsewhere.id].sort());
      assert.equal((await h.request('GET', `/api/v4/users/${alice.id}/channels`, { as: bob })).statusCode, 403);
    } finally {
      await h.stop();
    }
  });
});

describe('channel by team name', () => {
  it('when a channel is read by team name and channel name, then the channel; an unknown team is 404 with the reference\'s id', async () => {
    const h = await postsHarness();
    try {
      const team = h.team();
      const alice = h.user({ teamId: team });
      const channel = await h.channel(alice, team);
      const teamName = h.users.teams.get(team) ?? '';
      const res = await h.request('GET', `/api/v4/teams/name/${teamName}/channels/name/${channel.name}`, { as: alice });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal((res.json() as { id: string }).id, channel.id);
      // As the reference's GetChannelByNameForTeamName: the unknown team is named in the error id.
      const missing = await h.request('GET', `/api/v4/teams/name/nosuchteam/channels/name/${channel.name}`, { as: alice });
      assert.equal(missing.statusCode, 404);
      assert.equal((missing.json() as { id: string }).id, 'app.team.get_by_name.missing.app_error');
      // By team id, the reference looks the channel up by (team, name) only: an unknown team is a missing channel.
      const byId = await h.request('GET', `/api/v4/teams/${'t'.repeat(26)}/channels/name/${channel.name}`, { as: alice });
      assert.equal(byId.statusCode, 404);
      assert.equal((byId.json() as { id: string }).id, 'app.channel.get_by_name.missing.app_error');
    } finally {
      await h.stop();
    }
  });
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError } from '../../test-support/assert-error';
import { httpHarness, type Caller, type HttpHarness } from '../../test-support/http-harness';

describe('teams', () => {
  let h: HttpHarness;
  let admin: Caller;
  before(async () => {
    h = await httpHarness();
    admin = await h.admin();
  });
  after(async () => h.stop());

  const createTeam = (as: Caller, body: unknown) => h.request('POST', '/api/v4/teams', { as, body });

  it('when a user creates a team, then 201 with the Team and the creator is a team admin', async () => {
    const u = await h.user();
    const res = await createTeam(u, { name: 'engineering', display_name: 'Engineering', type: 'O' });
    assert.equal(res.statusCode, 201);
    const team = res.json();
    assert.equal(team.name, 'engineering');
    assert.equal(team.type, 'O');
    assert.equal(team.allow_open_invite, false);
    assert.equal(team.scheme_id, null);
    assert.match(team.invite_id, /^[a-z0-9]{26}$/);
    const members = (await h.request('GET', `/api/v4/teams/${team.id}/members`, { as: u })).json();
    assert.equal(members.length, 1);
    assert.equal(members[0].user_id, u.id);
    assert.equal(members[0].roles, 'team_user team_admin');
    assert.equal(members[0].scheme_admin, true);
    const mine = (await h.request('GET', '/api/v4/users/me/teams', { as: u })).json();
    assert.deepEqual(mine.map((t: { id: string }) => t.id), [team.id]);
  });

  it('when the team name is reserved, malformed or taken, then 400 with the model id', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: 'apiteam', display_name: 'A', type: 'O' }, 'model.team.is_valid.reserved.app_error'],
      [{ name: 'signup-now', display_name: 'A', type: 'O' }, 'model.team.is_valid.reserved.app_error'],
      [{ name: 'Upper', display_name: 'A', type: 'O' }, 'model.team.is_valid.characters.app_error'],
      [{ name: 'a', display_name: 'A', type: 'O' }, 'model.team.is_valid.characters.app_error'],
      [{ name: 'ends-', display_name: 'A', type: 'O' }, 'model.team.is_valid.characters.app_error'],
      [{ name: 'x'.repeat(65), display_name: 'A', type: 'O' }, 'model.team.is_valid.name.app_error'],
      [{ name: 'nodisplay', display_name: '', type: 'O' }, 'model.team.is_valid.name.app_error'],
      [{ name: 'badtype', display_name: 'A', type: 'X' }, 'model.team.is_valid.type.app_error'],
      [{ name: 'bademail', display_name: 'A', type: 'O', email: 'nope' }, 'model.team.is_valid.email.app_error'],
    ];
    for (const [body, id] of cases) {
      const res = await createTeam(admin, body);
      assert.equal(res.statusCode, 400, JSON.stringify(body));
      assert.equal(res.json().id, id, JSON.stringify(body));
    }
    assert.equal((await createTeam(admin, { name: 'unique-team', display_name: 'U', type: 'I' })).statusCode, 201);
    const dup = await createTeam(admin, { name: 'unique-team', display_name: 'U', type: 'O' });
    assert.equal(dup.statusCode, 400);
    assert.equal(dup.json().id, 'app.team.save.existing.app_error');
  });

  it('when the caller lacks create_team, then 403 is_team_creation_allowed.disabled', async () => {
    const res = await createTeam({ id: 'g'.repeat(26), roles: 'system_guest' }, { name: 'guestteam', display_name: 'G', type: 'O' });
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().id, 'api.team.is_team_creation_allowed.disabled.app_error');
  });

  it('when reading a team, then members see it, outsiders get 403 unless it is open with open invites; unknown is 404', async () => {
    const owner = await h.user();
    const outsider = await h.user();
    const team = (await createTeam(owner, { name: 'privateish', display_name: 'P', type: 'O' })).json();
    assert.equal((await h.request('GET', `/api/v4/teams/${team.id}`, { as: owner })).statusCode, 200);
    assert.equal((await h.request('GET', `/api/v4/teams/${team.id}`, { as: outsider })).statusCode, 403);
    const open = (await createTeam(owner, { name: 'openteam', display_name: 'O', type: 'O', allow_open_invite: true })).json();
    const seen = await h.request('GET', `/api/v4/teams/${open.id}`, { as: outsider });
    assert.equal(seen.statusCode, 200);
    assert.equal(seen.json().invite_id, '');
    assert.equal((await h.request('GET', '/api/v4/teams/name/OpenTeam', { as: outsider })).json().id, open.id);
    const missing = await h.request('GET', `/api/v4/teams/${'t'.repeat(26)}`, { as: admin });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().id, 'app.team.get.find.app_error');
    const missingName = await h.request('GET', '/api/v4/teams/name/nosuchteam', { as: admin });
    assert.equal(missingName.json().id, 'app.team.get_by_name.missing.app_error');
    assertError(await h.request('GET', '/api/v4/teams/name/bad%20name', { as: admin }), 400, 'api.context.invalid_url_param.app_error');
  });

  it('when members are added, then self-join follows open invites and adding others needs add_user_to_team', async () => {
    const owner = await h.user();
    const joiner = await h.user();
    const other = await h.user();
    const closed = (await createTeam(owner, { name: 'closedteam', display_name: 'C', type: 'I' })).json();
    const selfClosed = await h.request('POST', `/api/v4/teams/${closed.id}/members`, { as: joiner, body: { team_id: closed.id, user_id: joiner.id } });
    assert.equal(selfClosed.statusCode, 403);
    assert.equal(selfClosed.json().id, 'api.context.permissions.app_error'); // detail (join_private_teams) shows only with EnableDeveloper
    const open = (await createTeam(owner, { name: 'joinable', display_name: 'J', type: 'O', allow_open_invite: true })).json();
    const selfOpen = await h.request('POST', `/api/v4/teams/${open.id}/members`, { as: joiner, body: { team_id: open.id, user_id: joiner.id } });
    assert.equal(selfOpen.statusCode, 201);
    assert.equal(selfOpen.json().roles, 'team_user');
    const outsiderAdds = await h.request('POST', `/api/v4/teams/${closed.id}/members`, { as: joiner, body: { team_id: closed.id, user_id: other.id } });
    assert.equal(outsiderAdds.statusCode, 403);
    const memberAdds = await h.request('POST', `/api/v4/teams/${closed.id}/members`, { as: owner, body: { team_id: closed.id, user_id: other.id } });
    assert.equal(memberAdds.statusCode, 201);
    const again = await h.request('POST', `/api/v4/teams/${closed.id}/members`, { as: owner, body: { team_id: closed.id, user_id: other.id } });
    assert.equal(again.statusCode, 201);
    assert.equal((await h.request('GET', `/api/v4/teams/${closed.id}/members`, { as: owner })).json().length, 2);
    const mismatch = await h.request('POST', `/api/v4/teams/${closed.id}/members`, { as: owner, body: { team_id: open.id, user_id: other.id } });
    assert.equal(mismatch.statusCode, 400);
    const badUser = await h.request('POST', `/api/v4/teams/${closed.id}/members`, { as: owner, body: { team_id: closed.id, user_id: 'bad' } });
    assert.equal(badUser.statusCode, 400);
    const unknownUser = await h.request('POST', `/api/v4/teams/${closed.id}/members`, { as: owner, body: { team_id: closed.id, user_id: 'u'.repeat(26) } });
    assert.equal(unknownUser.statusCode, 404);
    const teamsOfOther = (await h.request('GET', `/api/v4/users/${other.id}/teams/members`, { as: other })).json();
    assert.deepEqual(teamsOfOther.map((m: { team_id: string }) => m.team_id), [closed.id]);
    assert.equal((await h.request('GET', `/api/v4/users/${other.id}/teams`, { as: joiner })).statusCode, 403);
    assert.equal((await h.request('GET', `/api/v4/users/${other.id}/teams`, { as: admin })).json().length, 1);
    assert.equal((await h.request('GET', `/api/v4/teams/${closed.id}/members`, { as: joiner })).statusCode, 403);
    const one = await h.request('GET', `/api/v4/teams/${closed.id}/members/${other.id}`, { as: owner });
    assert.equal(one.statusCode, 200);
    assert.equal(one.json().roles, 'team_user');
    assert.equal((await h.request('GET', `/api/v4/teams/${closed.id}/members/me`, { as: other })).json().user_id, other.id);
    const notMember = await h.request('GET', `/api/v4/teams/${closed.id}/members/${joiner.id}`, { as: owner });
    assert.equal(notMember.statusCode, 404);
    assert.equal(notMember.json().id, 'app.team.get_member.missing.app_error');
    assert.equal((await h.request('GET', `/api/v4/teams/${closed.id}/members/${other.id}`, { as: joiner })).statusCode, 403);
  });

  it('when a team is full, then adding is 400 max_accounts', async () => {
    await h.patchConfig({ TeamSettings: { MaxUsersPerTeam: 1 } });
    try {
      const owner = await h.user();
      const other = await h.user();
      const team = (await createTeam(owner, { name: 'tinyteam', display_name: 'T', type: 'O' })).json();
      const res = await h.request('POST', `/api/v4/teams/${team.id}/members`, { as: owner, body: { team_id: team.id, user_id: other.id } });
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().id, 'app.team.join_user_to_team.max_accounts.app_error');
    } finally {
      await h.patchConfig({ TeamSettings: { MaxUsersPerTeam: 50 } });
    }
  });

  it('when a team is created and members join, then team.created and team.member_added are published keyed by the team id, once per new membership', async () => {
    const owner = await h.user();
    const other = await h.user();
    h.bus.clear();
    const team = (await createTeam(owner, { name: 'eventsteam', display_name: 'E', type: 'O' })).json();
    const add = () => h.request('POST', `/api/v4/teams/${team.id}/members`, { as: owner, body: { team_id: team.id, user_id: other.id } });
    assert.equal((await add()).statusCode, 201);
    assert.equal((await add()).statusCode, 201, 'already a member: answered, not announced again');
    const teamEvents = h.bus.published.filter((p) => p.topic === 'users.events' && p.value.type.startsWith('team.'));
    assert.deepEqual(
      teamEvents.map((p) => [p.key, p.value.type, p.value.payload]),
      [
        [team.id, 'team.created', { userId: owner.id, teamId: team.id }],
        [team.id, 'team.member_added', { userId: other.id, teamId: team.id }],
      ],
    );
  });
});

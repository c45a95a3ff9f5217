import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Team, TeamMembership } from '@mattermost/types/teams';
import { expectClientError } from './support/client';
import { createTeam, createUser, createUserSession, uniqueName, type AdminSession } from './support/fixtures';
import { givenAdminWorld } from './support/admin-world';
import { assertAppError, assertJson, raw } from './support/http';
import type { Target } from './support/target';

const ID = /^[a-z0-9]{26}$/;

describe('teams', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
  });
  after(() => target?.stop());

  it('when an admin creates a team, then 201 with the Team', async () => {
    const name = uniqueName('team');
    const response = await raw(target.url, 'POST', '/api/v4/teams', {
      token: admin.token,
      body: { name, display_name: 'The Team', type: 'O', description: 'for tests' },
    });
    assertJson(response, 201);
    const team = response.json as Team;
    assert.match(team.id, ID);
    assert.equal(team.name, name);
    assert.equal(team.display_name, 'The Team');
    assert.equal(team.type, 'O');
    assert.equal(team.delete_at, 0);
    assert.ok(team.create_at > 0);
  });

  it('when a team is fetched by id and by name, then the same team is returned', async () => {
    const team = await createTeam(admin.client);
    assert.equal((await admin.client.getTeam(team.id)).name, team.name);
    assert.equal((await admin.client.getTeamByName(team.name)).id, team.id);
    assert.equal((await admin.client.getTeamByName(team.name.toUpperCase())).id, team.id, 'the name is lower-cased');
  });

  it('when the team is unknown, then 404 (by name app.team.get_by_name.missing.app_error); a malformed id is 400', async () => {
    await expectClientError(admin.client.getTeamByName(uniqueName('nope')), 404, 'app.team.get_by_name.missing.app_error');
    await expectClientError(admin.client.getTeam('t'.repeat(26)), 404, 'app.team.get.find.app_error');
    assertAppError(await raw(target.url, 'GET', '/api/v4/teams/not-an-id', { token: admin.token }), 400, 'api.context.invalid_url_param.app_error');
  });

  it('when the team name starts with a reserved word, then 400 model.team.is_valid.reserved.app_error', async () => {
    const name = `api${uniqueName('x')}`;
    const response = await raw(target.url, 'POST', '/api/v4/teams', { token: admin.token, body: { name, display_name: 'Reserved', type: 'O' } });
    assertAppError(response, 400, 'model.team.is_valid.reserved.app_error');
    await expectClientError(admin.client.getTeamByName(name), 404, 'app.team.get_by_name.missing.app_error');
  });

  it('when the team name or display name is invalid, then 400 and no team is made', async () => {
    for (const body of [
      { body: { name: 'Has Space', display_name: 'x', type: 'O' }, id: 'model.team.is_valid.characters.app_error' },
      { body: { name: 'a', display_name: 'x', type: 'O' }, id: 'model.team.is_valid.characters.app_error' },
      { body: { name: `-${uniqueName()}`, display_name: 'x', type: 'O' }, id: 'model.team.is_valid.characters.app_error' },
      { body: { name: uniqueName('dn'), display_name: '', type: 'O' }, id: 'model.team.is_valid.name.app_error' },
      { body: { name: uniqueName('dn'), display_name: 'd'.repeat(65), type: 'O' }, id: 'model.team.is_valid.name.app_error' },
      { body: { name: uniqueName('ty'), display_name: 'x', type: 'Z' }, id: 'model.team.is_valid.type.app_error' },
    ]) {
      const response = await raw(target.url, 'POST', '/api/v4/teams', { token: admin.token, body: body.body });
      assertAppError(response, 400, body.id);
    }
  });

  it('when the team name is taken, then 400 and the first team is kept', async () => {
    const team = await createTeam(admin.client);
    const response = await raw(target.url, 'POST', '/api/v4/teams', { token: admin.token, body: { name: team.name, display_name: 'Again', type: 'O' } });
    assertAppError(response, 400, 'app.team.save.existing.app_error');
    assert.equal((await admin.client.getTeamByName(team.name)).id, team.id);
  });

  it('when a user is added to a team, then 201 with the TeamMember and the team is in the user\'s teams', async () => {
    const team = await createTeam(admin.client);
    const member = await createUserSession(target.url, admin.client, 'member');
    const response = await raw(target.url, 'POST', `/api/v4/teams/${team.id}/members`, {
      token: admin.token,
      body: { team_id: team.id, user_id: member.user.id },
    });
    assertJson(response, 201);
    const membership = response.json as TeamMembership;
    assert.equal(membership.team_id, team.id);
    assert.equal(membership.user_id, member.user.id);
    assert.ok(membership.roles.split(' ').includes('team_user'));
    const mine = await member.client.getMyTeams();
    assert.deepEqual(mine.map((t) => t.id), [team.id]);
  });

  it('when a team is added with the official client, then getProfilesInTeam shows the member', async () => {
    const team = await createTeam(admin.client);
    const member = await createUser(admin.client, 'mem');
    const membership = await admin.client.addToTeam(team.id, member.user.id);
    assert.equal(membership.user_id, member.user.id);
    const inTeam = await admin.client.getProfilesInTeam(team.id, 0, 200);
    assert.ok(inTeam.some((u) => u.id === member.user.id));
  });

  it('when a non-admin creates a team and lists its teams, then the new team is there', async () => {
    const creator = await createUserSession(target.url, admin.client, 'creator');
    const team = await createTeam(creator.client);
    const mine = await creator.client.getMyTeams();
    assert.deepEqual(mine.map((t) => t.id), [team.id]);
  });

  it('when a user creates a team, then its membership has team_admin (GET /teams/{id}/members/{user_id})', async () => {
    const creator = await createUserSession(target.url, admin.client, 'creator');
    const team = await createTeam(creator.client);
    const membership = await creator.client.getTeamMember(team.id, creator.user.id);
    assert.ok(membership.roles.split(' ').includes('team_admin'));
  });

  it('when a user who is not in the team adds someone to it, then 403 and no member is added', async () => {
    const team = await createTeam(admin.client);
    const outsider = await createUserSession(target.url, admin.client, 'outsider');
    const victim = await createUser(admin.client, 'victim');
    await expectClientError(outsider.client.addToTeam(team.id, victim.user.id), 403, 'api.context.permissions.app_error');
    const inTeam = await admin.client.getProfilesInTeam(team.id, 0, 200);
    assert.ok(!inTeam.some((u) => u.id === victim.user.id));
  });

  it('when a user outside a team lists its members with in_team, then 403', async () => {
    const team = await createTeam(admin.client, 'closed', { type: 'I' });
    const outsider = await createUserSession(target.url, admin.client, 'lurker');
    await expectClientError(outsider.client.getProfilesInTeam(team.id, 0, 60), 403, 'api.context.permissions.app_error');
  });

  it('when a non-member reads an invite-only team by name, then 403', async () => {
    const team = await createTeam(admin.client, 'inv', { type: 'I' });
    const outsider = await createUserSession(target.url, admin.client, 'peek');
    await expectClientError(outsider.client.getTeamByName(team.name), 403, 'api.context.permissions.app_error');
  });
});

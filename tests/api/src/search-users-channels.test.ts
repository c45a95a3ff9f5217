import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Team } from '@mattermost/types/teams';
import type { AdminSession } from './support/fixtures';
import { createUser, patchConfig, uniqueName } from './support/fixtures';
import { givenAdminWorld } from './support/admin-world';
import { assertAppError, assertJson, raw } from './support/http';
import { newChannel, newTeam, outsider, teamMember, type Actor } from './support/posts-fixtures';
import type { Target } from './support/target';

interface WireUser {
  id: string;
  username: string;
  email?: string;
  first_name?: string;
  last_name?: string;
}

describe('user and channel search', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;
  let team: Team;
  let alice: Actor;
  let bob: Actor;
  let carolId: string;
  let carolName: string;
  let lastName: string;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
    team = await newTeam(admin);
    alice = await teamMember(target.url, admin, team, 'ua');
    bob = await teamMember(target.url, admin, team, 'ub');
    lastName = uniqueName('zq').replace(/[^a-z]/g, 'x');
    const carol = await createUser(admin.client, 'uc', { first_name: 'Carolina', last_name: lastName, nickname: 'cnick' });
    carolId = carol.user.id;
    carolName = carol.username;
    await admin.client.addToTeam(team.id, carolId);
  });
  after(async () => {
    await patchConfig(admin.client, { PrivacySettings: { ShowEmailAddress: true, ShowFullName: true } } as never).catch(() => undefined);
    await target?.stop();
  });

  const searchUsers = (who: Actor | AdminSession, body: unknown) => raw(target.url, 'POST', '/api/v4/users/search', { token: who.token, body });
  const ids = (response: { json: unknown }): string[] => (response.json as WireUser[]).map((u) => u.id);

  it('when users are searched, then every word prefixes username, nickname or a visible name; team and limit filters apply', async () => {
    const byName = await searchUsers(alice, { term: `@${carolName.slice(0, 5)}`, team_id: team.id });
    assertJson(byName, 200);
    assert.ok(ids(byName).includes(carolId));
    const byLast = await searchUsers(alice, { term: lastName.slice(0, 6) });
    assert.deepEqual(ids(byLast), [carolId]);
    assert.deepEqual(ids(await searchUsers(alice, { term: `cnick ${lastName}` })), [carolId]);
    assert.deepEqual(ids(await searchUsers(alice, { term: `cnick nomatchword` })), []);
    const limited = await searchUsers(alice, { term: 'u', limit: 1 });
    assert.equal((limited.json as WireUser[]).length, 1);
    assertAppError(await searchUsers(alice, { term: '' }), 400, 'api.context.invalid_body_param.app_error');
    assertAppError(await searchUsers(alice, { term: 'x', limit: 1001 }), 400, 'api.context.invalid_body_param.app_error');
    assertAppError(await searchUsers(alice, { term: { $regex: '.*' } }), 400, 'api.context.invalid_body_param.app_error');
    const stranger = await outsider(target.url, admin, 'us');
    assertAppError(await searchUsers(stranger, { term: 'u', team_id: team.id }), 403, 'api.context.permissions.app_error');
  });

  it('when ShowFullName and ShowEmailAddress are off, then non-admins cannot find users by name or e-mail, admins still can', async () => {
    await patchConfig(admin.client, { PrivacySettings: { ShowEmailAddress: false, ShowFullName: false } } as never);
    try {
      assert.deepEqual(ids(await searchUsers(alice, { term: lastName })), []);
      assert.deepEqual(ids(await searchUsers(alice, { term: `${carolName}@example.com` })), []);
      const hidden = await searchUsers(alice, { term: carolName });
      const found = (hidden.json as WireUser[]).find((u) => u.id === carolId);
      assert.ok(found);
      assert.ok(!found.email, 'e-mail hidden');
      assert.ok(!found.last_name, 'last name hidden');
      assert.deepEqual(ids(await searchUsers(admin, { term: lastName })), [carolId]);
      assert.deepEqual(ids(await searchUsers(admin, { term: `${carolName}@example.com` })), [carolId]);
    } finally {
      await patchConfig(admin.client, { PrivacySettings: { ShowEmailAddress: true, ShowFullName: true } } as never);
    }
  });

  it('when users are autocompleted, then channel members and the rest of the team come apart; e-mail never matches; in_channel needs in_team', async () => {
    const channel = await newChannel(alice, team);
    await alice.client.addToChannel(carolId, channel.id);
    const response = await raw(target.url, 'GET', `/api/v4/users/autocomplete?in_team=${team.id}&in_channel=${channel.id}&name=`, { token: alice.token });
    assertJson(response, 200);
    const body = response.json as { users: WireUser[]; out_of_channel?: WireUser[] };
    assert.deepEqual(body.users.map((u) => u.id).sort(), [alice.id, carolId].sort());
    assert.ok(body.out_of_channel?.some((u) => u.id === bob.id));
    const byLast = await raw(target.url, 'GET', `/api/v4/users/autocomplete?in_team=${team.id}&name=${lastName.slice(0, 5)}`, { token: alice.token });
    assert.deepEqual((byLast.json as { users: WireUser[] }).users.map((u) => u.id), [carolId]);
    const byEmail = await raw(target.url, 'GET', `/api/v4/users/autocomplete?name=${encodeURIComponent(`${carolName}@example.com`)}`, { token: admin.token });
    assert.deepEqual((byEmail.json as { users: WireUser[] }).users, []);
    assertAppError(await raw(target.url, 'GET', `/api/v4/users/autocomplete?in_channel=${channel.id}&name=a`, { token: alice.token }), 500, 'api.user.autocomplete_users.missing_team_id.app_error');
    const priv = await newChannel(alice, team, 'P');
    assertAppError(await raw(target.url, 'GET', `/api/v4/users/autocomplete?in_team=${team.id}&in_channel=${priv.id}&name=`, { token: bob.token }), 403, 'api.context.permissions.app_error');
  });

  it('when a team\'s channels are searched, then open channels (archived too, ExperimentalViewArchivedChannels being on) match by name, display name or purpose prefix; private ones never', async () => {
    const word = uniqueName('chs').replace(/[^a-z]/g, 'x');
    const open = await alice.client.createChannel({ team_id: team.id, name: `${word}-open`, display_name: `Ops ${word}`, type: 'O', purpose: 'deploys' } as never);
    const priv = await alice.client.createChannel({ team_id: team.id, name: `${word}-priv`, display_name: `Secret ${word}`, type: 'P' } as never);
    const archived = await alice.client.createChannel({ team_id: team.id, name: `${word}-gone`, display_name: `Gone ${word}`, type: 'O' } as never);
    await alice.client.deleteChannel(archived.id);
    const search = (who: Actor, term: unknown) => raw(target.url, 'POST', `/api/v4/teams/${team.id}/channels/search`, { token: who.token, body: { term } });
    for (const term of [word, `ops ${word}`.slice(0, 3), word.toUpperCase()]) {
      const response = await search(bob, term);
      assertJson(response, 200);
      const found = (response.json as { id: string }[]).map((c) => c.id);
      if (term.startsWith('op')) assert.ok(found.includes(open.id), term);
      else assert.deepEqual(found, [archived.id, open.id], term);
      assert.ok(!found.includes(priv.id), term);
    }
    const stranger = await outsider(target.url, admin, 'cs');
    assert.equal((await search(stranger, word)).status, 404);
    assertAppError(await search(bob, { $gt: '' }), 400, 'api.context.invalid_body_param.app_error');
  });
});

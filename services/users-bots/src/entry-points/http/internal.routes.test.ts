import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SERVICE_CREDENTIAL_MAX_AGE_MS, serviceCredential } from '@switchyard/http-kit';
import { assertError } from '../../test-support/assert-error';
import { httpHarness, identityHeaders, serviceHeaders, SECRET, type Caller, type HttpHarness } from '../../test-support/http-harness';

describe('internal API', () => {
  let h: HttpHarness;
  let admin: Caller;
  before(async () => {
    h = await httpHarness();
    admin = await h.admin();
  });
  after(async () => h.stop());

  it('when a call has no service credential, then 401 and nothing is revealed', async () => {
    for (const [method, url] of [['GET', '/internal/v1/config'], ['POST', '/internal/v1/auth/resolve'], ['POST', '/internal/v1/users/by-ids'], ['GET', '/internal/v1/nothing-here']] as const) {
      const res = await h.request(method, url, { body: {} });
      assert.equal(res.statusCode, 401, url);
      assert.equal(res.json().id, 'api.context.session_expired.app_error');
    }
    const forged = await h.request('GET', '/internal/v1/config', { headers: serviceHeaders('gateway', 'GET', '/internal/v1/config', 'another-secret-entirely-000000') });
    assertError(forged, 401, 'api.context.session_expired.app_error');
  });

  it('when a user or bot identity (however valid, even an admin) calls an internal route, then 401', async () => {
    const bot: Caller = { id: admin.id, roles: 'system_user system_admin', isBot: true };
    for (const caller of [admin, bot]) {
      for (const [method, url] of [['GET', '/internal/v1/config'], ['POST', '/internal/v1/auth/resolve'], ['POST', '/internal/v1/users/by-ids'], ['GET', `/internal/v1/teams/${'n'.repeat(26)}`]] as const) {
        const res = await h.request(method, url, { as: caller, body: {} });
        assert.equal(res.statusCode, 401, `${method} ${url}`);
        assert.equal(res.json().id, 'api.context.session_expired.app_error');
      }
    }
  });

  it('when a service credential is for another method, another path, stale or from a service the route does not name, then it is refused', async () => {
    const url = '/internal/v1/config';
    assert.equal((await h.request('GET', url, { service: 'posts' })).statusCode, 200);
    assertError(await h.request('GET', url, { headers: serviceHeaders('posts', 'POST', url) }), 401, 'api.context.session_expired.app_error', 'other method');
    assertError(await h.request('GET', url, { headers: serviceHeaders('posts', 'GET', '/internal/v1/config?x=1') }), 401, 'api.context.session_expired.app_error', 'other target');
    const stale = serviceCredential('posts', SECRET).headers('GET', url, Date.now() - SERVICE_CREDENTIAL_MAX_AGE_MS - 1_000);
    assertError(await h.request('GET', url, { headers: stale }), 401, 'api.context.session_expired.app_error', 'stale');
    const future = serviceCredential('posts', SECRET).headers('GET', url, Date.now() + SERVICE_CREDENTIAL_MAX_AGE_MS + 1_000);
    assertError(await h.request('GET', url, { headers: future }), 401, 'api.context.session_expired.app_error', 'from the future');
    const notAllowed = await h.request('POST', '/internal/v1/auth/resolve', { service: 'posts', body: { token: 'x'.repeat(26) } });
    assert.equal(notAllowed.statusCode, 403, 'only the gateway resolves tokens');
    assert.equal(notAllowed.json().id, 'api.context.permissions.app_error');
    const unknownService = await h.request('GET', url, { service: 'intruder' });
    assertError(unknownService, 403, 'api.context.permissions.app_error');
    const both = await h.request('GET', url, { headers: { ...identityHeaders(admin, 'GET', url), ...serviceHeaders('posts', 'GET', '/internal/v1/teams') } });
    assertError(both, 401, 'api.context.session_expired.app_error', 'a user identity does not make up for a misbound credential');
  });

  it('when resolving tokens, then garbage, empty and non-string tokens are refused', async () => {
    const unknown = await h.request('POST', '/internal/v1/auth/resolve', { service: 'gateway', body: { token: 'x'.repeat(26) } });
    assert.equal(unknown.statusCode, 401);
    assert.equal(unknown.json().id, 'api.context.session_expired.app_error');
    assertError(await h.request('POST', '/internal/v1/auth/resolve', { service: 'gateway', body: { token: '' } }), 400, 'api.context.invalid_body_param.app_error');
    assertError(await h.request('POST', '/internal/v1/auth/resolve', { service: 'gateway', body: { token: { $gt: '' } } }), 400, 'api.context.invalid_body_param.app_error');
  });

  it('when a login token is resolved, then the ResolvedSession has the exact shape', async () => {
    const u = await h.user();
    const token = String((await h.request('POST', '/api/v4/users/login', { body: { login_id: u.username, password: 'password-1' } })).headers.token);
    const res = await h.request('POST', '/internal/v1/auth/resolve', { service: 'gateway', body: { token } });
    assert.equal(res.statusCode, 200);
    const session = res.json();
    assert.deepEqual(Object.keys(session).sort(), ['csrfToken', 'expiresAt', 'isBot', 'roles', 'sessionId', 'sessionType', 'userId']);
    assert.equal(session.userId, u.id);
  });

  it('when users are looked up by ids or usernames, then InternalUser objects come back, deactivated ones included', async () => {
    const u = await h.user({ username: 'lookmeup' });
    await h.request('DELETE', `/api/v4/users/${u.id}`, { as: admin });
    const byIds = await h.request('POST', '/internal/v1/users/by-ids', { service: 'incoming-hooks', body: { ids: [u.id, 'n'.repeat(26)] } });
    assert.equal(byIds.statusCode, 200);
    const [found] = byIds.json();
    assert.deepEqual(Object.keys(found).sort(), ['deleteAt', 'firstName', 'id', 'isBot', 'lastName', 'nickname', 'roles', 'username']);
    assert.ok(found.deleteAt > 0);
    const byNames = await h.request('POST', '/internal/v1/users/by-usernames', { service: 'incoming-hooks', body: { usernames: ['LookMeUp', 'switchyard'] } });
    assert.deepEqual(byNames.json().map((x: { username: string; isBot: boolean }) => [x.username, x.isBot]).sort(), [['lookmeup', false], ['switchyard', true]]);
    assertError(await h.request('POST', '/internal/v1/users/by-ids', { service: 'incoming-hooks', body: { ids: 'nope' } }), 400, 'api.context.invalid_body_param.app_error');
    assert.deepEqual((await h.request('POST', '/internal/v1/users/by-ids', { service: 'incoming-hooks', body: { ids: [] } })).json(), []);
  });

  it('when posts asks for mention settings, then only the users whose settings differ from the defaults come back (comments root/any included), keys split and trimmed', async () => {
    const create = async (username: string, firstName: string, notifyProps: Record<string, string>) => {
      const res = await h.request('POST', '/api/v4/users', { as: admin, body: { username, email: `${username}@example.com`, password: 'Passw0rd-long!', first_name: firstName, notify_props: notifyProps } });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().id as string;
    };
    const keyed = await create('keyed', 'Kim', { mention_keys: ' Deploy , ,@ops,', first_name: 'true' });
    const quiet = await create('quiet', 'Quinn', { channel: 'false', first_name: 'true' });
    const nameless = await create('nameless', '', { first_name: 'true' });
    const plain = await create('plainuser', 'Pat', {});
    const threads = await create('threadsuser', 'Tess', { comments: 'any' });
    const never = await create('neveruser', 'Ned', { comments: 'never' });
    const url = '/internal/v1/users/mention-settings';
    const res = await h.request('POST', url, { service: 'posts', body: { ids: [keyed, quiet, nameless, plain, threads, never, 'n'.repeat(26)] } });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), {
      settings: {
        [keyed]: { mention_keys: ['Deploy', '@ops'], first_name: 'Kim', channel: true },
        [quiet]: { mention_keys: [], first_name: 'Quinn', channel: false },
        [threads]: { mention_keys: [], first_name: '', channel: true, comments: 'any' },
      },
    });
    assertError(await h.request('POST', url, { service: 'realtime', body: { ids: [] } }), 403, 'api.context.permissions.app_error');
    assertError(await h.request('POST', url, { service: 'posts', body: { ids: Array.from({ length: 1001 }, () => keyed) } }), 400, 'api.context.invalid_body_param.app_error');
    assert.deepEqual((await h.request('POST', url, { service: 'posts', body: { ids: [] } })).json(), { settings: {} });
  });

  it('when a team member is asked for, then the TeamMember or 404', async () => {
    const u = await h.user();
    const team = (await h.request('POST', '/api/v4/teams', { as: u, body: { name: 'internalteam', display_name: 'I', type: 'O' } })).json();
    const res = await h.request('GET', `/internal/v1/teams/${team.id}/members/${u.id}`, { service: 'posts' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().roles, 'team_user team_admin');
    const missing = await h.request('GET', `/internal/v1/teams/${team.id}/members/${admin.id}`, { service: 'posts' });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().id, 'app.team.get_member.missing.app_error');
    assert.equal((await h.request('GET', `/internal/v1/teams/bad/members/${u.id}`, { service: 'posts' })).statusCode, 400);
  });

  it('when team members among users are asked for, then the ids with an active membership in that team (or any team); others and bad bodies are not', async () => {
    const [inTeam, joined, elsewhere, none] = [await h.user(), await h.user(), await h.user(), await h.user()];
    const team = (await h.request('POST', '/api/v4/teams', { as: inTeam, body: { name: 'amongteam', display_name: 'A', type: 'O' } })).json();
    const other = (await h.request('POST', '/api/v4/teams', { as: elsewhere, body: { name: 'amongother', display_name: 'B', type: 'O' } })).json();
    assert.equal((await h.request('POST', `/api/v4/teams/${team.id}/members`, { as: admin, body: { team_id: team.id, user_id: joined.id } })).statusCode, 201);
    const ids = [inTeam.id, joined.id, elsewhere.id, none.id, 'n'.repeat(26)];
    const inThatTeam = await h.request('POST', '/internal/v1/team-members/among', { service: 'posts', body: { team_id: team.id, user_ids: ids } });
    assert.equal(inThatTeam.statusCode, 200);
    assert.deepEqual(inThatTeam.json(), [inTeam.id, joined.id]);
    const anyTeam = await h.request('POST', '/internal/v1/team-members/among', { service: 'posts', body: { user_ids: ids } });
    assert.deepEqual([...anyTeam.json()].sort(), [inTeam.id, joined.id, elsewhere.id].sort());
    assert.deepEqual((await h.request('POST', '/internal/v1/team-members/among', { service: 'posts', body: { team_id: other.id, user_ids: [] } })).json(), []);
    assertError(await h.request('POST', '/internal/v1/team-members/among', { service: 'posts', body: { user_ids: Array.from({ length: 101 }, () => none.id) } }), 400, 'api.context.invalid_body_param.app_error');
    assertError(await h.request('POST', '/internal/v1/team-members/among', { service: 'posts', body: { user_ids: { $gt: '' } } }), 400, 'api.context.invalid_body_param.app_error');
    assertError(await h.request('POST', '/internal/v1/team-members/among', { service: 'incoming-hooks', body: { user_ids: [] } }), 403, 'api.context.permissions.app_error');
  });

  it('when a team is asked for by id or name, then the InternalTeam (hidden and deleted teams too) or 404', async () => {
    const u = await h.user();
    const team = (await h.request('POST', '/api/v4/teams', { as: u, body: { name: 'internalbyname', display_name: 'By Name', type: 'I' } })).json();
    const byId = await h.request('GET', `/internal/v1/teams/${team.id}`, { service: 'posts' });
    assert.equal(byId.statusCode, 200);
    assert.deepEqual(byId.json(), { id: team.id, name: 'internalbyname', display_name: 'By Name', type: 'I', delete_at: 0 });
    const byName = await h.request('GET', '/internal/v1/teams/name/InternalByName', { service: 'posts' });
    assert.equal(byName.statusCode, 200);
    assert.equal(byName.json().id, team.id);
    const missing = await h.request('GET', `/internal/v1/teams/${'n'.repeat(26)}`, { service: 'posts' });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().id, 'app.team.get.find.app_error');
    const missingName = await h.request('GET', '/internal/v1/teams/name/nosuchteamhere', { service: 'posts' });
    assert.equal(missingName.statusCode, 404);
    assert.equal(missingName.json().id, 'app.team.get_by_name.missing.app_error');
    assert.equal((await h.request('GET', '/internal/v1/teams/bad', { service: 'posts' })).statusCode, 400);
    assert.equal((await h.request('GET', '/internal/v1/teams/name/bad%20name', { service: 'posts' })).statusCode, 400);
    assert.equal((await h.request('GET', `/internal/v1/teams/${team.id}`)).statusCode, 401);
  });

  it('when a service calls the config route, then it gets the unmasked config', async () => {
    const res = await h.request('GET', '/internal/v1/config', { service: 'outgoing-dispatch' });
    assert.equal(res.statusCode, 200);
    assert.match(res.json().ServiceSettings.IntegrationSigningSecret, /^whsec_/);
  });

  it('when realtime (which follows EventSettings and the status settings) calls the config route, then it gets the config', async () => {
    assert.equal((await h.request('GET', '/internal/v1/config', { service: 'realtime' })).statusCode, 200);
  });
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError } from '../../test-support/assert-error';
import { httpHarness, type Caller, type HttpHarness } from '../../test-support/http-harness';

describe('reading users', () => {
  let h: HttpHarness;
  let admin: Caller;
  before(async () => {
    h = await httpHarness();
    admin = await h.admin();
  });
  after(async () => h.stop());

  it('when there is no identity, then 401 session_expired', async () => {
    for (const url of ['/api/v4/users', '/api/v4/users/me', `/api/v4/users/${admin.id}`]) {
      const res = await h.request('GET', url);
      assert.equal(res.statusCode, 401, url);
      assert.equal(res.json().id, 'api.context.session_expired.app_error');
    }
  });

  it('when identity headers are forged, then they are ignored (401)', async () => {
    const res = await h.request('GET', '/api/v4/users/me', {
      headers: { 'x-switchyard-identity': Buffer.from(JSON.stringify({ userId: admin.id, roles: 'system_admin', issuedAt: Date.now() })).toString('base64url'), 'x-switchyard-identity-signature': 'forged' },
    });
    assertError(res, 401, 'api.context.session_expired.app_error');
  });

  it('when a user asks for me, then the self-sanitised user comes back with notify_props and email', async () => {
    const u = await h.user();
    const res = await h.request('GET', '/api/v4/users/me', { as: u });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().id, u.id);
    assert.equal(res.json().email, u.email);
    assert.ok(res.json().notify_props);
  });

  it('when a user reads another user, then the profile is sanitised per PrivacySettings; admins see more', async () => {
    const a = await h.user();
    const b = await h.user();
    const seen = (await h.request('GET', `/api/v4/users/${b.id}`, { as: a })).json();
    assert.equal(seen.email, b.email);
    assert.equal(seen.notify_props, undefined);
    assert.equal(seen.last_password_update, undefined);
    assert.equal(seen.auth_data, '');
    await h.patchConfig({ PrivacySettings: { ShowEmailAddress: false, ShowFullName: false } });
    try {
      const hidden = (await h.request('GET', `/api/v4/users/${b.id}`, { as: a })).json();
      assert.equal(hidden.email, '');
      assert.equal(hidden.first_name, '');
      const byAdmin = (await h.request('GET', `/api/v4/users/${b.id}`, { as: admin })).json();
      assert.equal(byAdmin.email, b.email);
      const list = (await h.request('GET', '/api/v4/users?per_page=200', { as: a })).json() as Array<{ id: string; email: string }>;
      assert.equal(list.find((u) => u.id === b.id)?.email, '');
      assert.equal(list.find((u) => u.id === a.id)?.email, a.email);
    } finally {
      await h.patchConfig({ PrivacySettings: { ShowEmailAddress: true, ShowFullName: true } });
    }
  });

  it('when a user id is malformed or unknown, then 400 invalid_url_param or 404 missing_account', async () => {
    const bad = await h.request('GET', '/api/v4/users/not-an-id', { as: admin });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().id, 'api.context.invalid_url_param.app_error');
    const missing = await h.request('GET', `/api/v4/users/${'a'.repeat(26)}`, { as: admin });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().id, 'app.user.missing_account.const');
  });

  it('when a caller lacks view_members, then reading others is 403 but self works', async () => {
    const b = await h.user();
    const guest = { id: 'g'.repeat(26), roles: 'system_guest' };
    const res = await h.request('GET', `/api/v4/users/${b.id}`, { as: guest });
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().id, 'api.context.permissions.app_error');
  });

  it('when looking up by username, then it is lower-cased; bad characters are 400', async () => {
    const u = await h.user({ username: 'mixedcase' });
    const res = await h.request('GET', '/api/v4/users/username/MixedCase', { as: admin });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().id, u.id);
    const bad = await h.request('GET', '/api/v4/users/username/bad%20name', { as: admin });
    assertError(bad, 400, 'api.context.invalid_url_param.app_error');
  });

  it('when posting ids or usernames, then matching users come back; an empty list is 400', async () => {
    const u = await h.user();
    const ids = await h.request('POST', '/api/v4/users/ids', { as: admin, body: [u.id, 'x'.repeat(26)] });
    assert.equal(ids.statusCode, 200);
    assert.deepEqual(ids.json().map((x: { id: string }) => x.id), [u.id]);
    const empty = await h.request('POST', '/api/v4/users/ids', { as: admin, body: [] });
    assert.equal(empty.statusCode, 400);
    assert.equal(empty.json().id, 'api.context.invalid_body_param.app_error');
    const notArray = await h.request('POST', '/api/v4/users/ids', { as: admin, body: { ids: [u.id] } });
    assert.equal(notArray.statusCode, 400);
    const names = await h.request('POST', '/api/v4/users/usernames', { as: admin, body: [u.username.toUpperCase()] });
    assert.deepEqual(names.json().map((x: { id: string }) => x.id), [u.id]);
    const emptyNames = await h.request('POST', '/api/v4/users/usernames', { as: admin, body: [] });
    assert.equal(emptyNames.statusCode, 400);
    const since = await h.request('POST', `/api/v4/users/ids?since=${Date.now() + 60_000}`, { as: admin, body: [u.id] });
    assert.deepEqual(since.json(), []);
  });

  it('when listing users, then paging, active/inactive, role and team filters apply', async () => {
    const fresh = await httpHarness();
    try {
      const boss = await fresh.admin();
      const a = await fresh.user({ username: 'aa-list' });
      const b = await fresh.user({ username: 'bb-list', roles: 'system_user system_post_all' });
      const c = await fresh.user({ username: 'cc-list' });
      assert.equal((await fresh.request('DELETE', `/api/v4/users/${c.id}`, { as: boss })).statusCode, 200);
      const names = async (query: string, as: Caller = boss) => {
        const res = await fresh.request('GET', `/api/v4/users${query}`, { as });
        assert.equal(res.statusCode, 200, `${query}: ${res.body}`);
        return (res.json() as Array<{ username: string }>).map((u) => u.username);
      };
      assert.deepEqual(await names('?per_page=2'), ['aa-list', 'admin']);
      assert.deepEqual(await names('?per_page=2&page=1'), ['bb-list', 'cc-list']);
      assert.ok((await names('?active=true')).every((n) => n !== 'cc-list'));
      assert.deepEqual(await names('?inactive=true'), ['cc-list']);
      assert.deepEqual(await names('?role=system_post_all'), ['bb-list']);
      assert.deepEqual(await names('?roles=system_admin,system_post_all'), ['admin', 'bb-list']);
      const team = (await fresh.request('POST', '/api/v4/teams', { as: a, body: { name: 'listteam', display_name: 'L', type: 'O' } })).json();
      assert.deepEqual(await names(`?in_team=${team.id}`, a), ['aa-list']);
      assert.ok(!(await names(`?not_in_team=${team.id}`, a)).includes('aa-list'));
      const without = await names('?without_team=true');
      assert.ok(without.includes('bb-list') && !without.includes('aa-list'));
      const denied = await fresh.request('GET', '/api/v4/users?without_team=true', { as: b });
      assert.equal(denied.statusCode, 403);
      const notMember = await fresh.request('GET', `/api/v4/users?in_team=${team.id}`, { as: b });
      assert.equal(notMember.statusCode, 403);
      const badSort = await fresh.request('GET', '/api/v4/users?sort=create_at', { as: boss });
      assert.equal(badSort.statusCode, 400);
      assert.equal(badSort.json().id, 'api.context.invalid_url_param.app_error');
      assert.equal((await fresh.request('GET', `/api/v4/users?in_team=${team.id}&sort=create_at`, { as: a })).statusCode, 200);
      assert.equal((await fresh.request('GET', '/api/v4/users?in_team=bad', { as: a })).statusCode, 400);
      assert.equal((await fresh.request('GET', `/api/v4/users?in_channel=${team.id}`, { as: a })).statusCode, 400);
      const bots = await names('?per_page=200');
      assert.ok(bots.includes('switchyard'));
    } finally {
      await fresh.stop();
    }
  });
});

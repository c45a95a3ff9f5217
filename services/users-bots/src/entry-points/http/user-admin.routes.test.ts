import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError } from '../../test-support/assert-error';
import { adminHarness, type Caller, type HttpHarness } from '../../test-support/http-harness';

describe('deactivation, roles and conversion', () => {
  let h: HttpHarness;
  let admin: Caller;
  before(async () => {
    ({ h, admin } = await adminHarness({ EnableBotAccountCreation: true, EnableUserAccessTokens: true }));
  });
  after(async () => h.stop());

  const login = async (username: string, password = 'password-1') =>
    h.request('POST', '/api/v4/users/login', { body: { login_id: username, password } });
  const resolve = async (token: string) =>
    h.request('POST', '/internal/v1/auth/resolve', { service: 'gateway', body: { token } });

  it('when an admin deactivates a user, then sessions die, user.deactivated is published before the answer, and login says inactive', async () => {
    const u = await h.user();
    const token = String((await login(u.username)).headers.token);
    assert.equal((await resolve(token)).statusCode, 200);
    h.bus.clear();
    const res = await h.request('DELETE', `/api/v4/users/${u.id}`, { as: admin });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { status: 'OK' });
    const event = h.bus.published.find((p) => p.value.type === 'user.deactivated');
    assert.equal(event?.key, u.id);
    assert.equal((event?.value.payload.sessionIds as string[]).length, 1);
    assert.equal((await resolve(token)).statusCode, 401);
    const again = await login(u.username);
    assert.equal(again.statusCode, 401);
    assert.equal(again.json().id, 'api.user.login.inactive.app_error');
    const seen = (await h.request('GET', `/api/v4/users/${u.id}`, { as: admin })).json();
    assert.ok(seen.delete_at > 0);
  });

  it('when a user deactivates someone else without edit_other_users, then 403', async () => {
    const a = await h.user();
    const b = await h.user();
    const res = await h.request('DELETE', `/api/v4/users/${b.id}`, { as: a });
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().id, 'api.context.permissions.app_error');
  });

  it('when a user deactivates themselves, then 401 not_enable unless EnableUserDeactivation', async () => {
    const a = await h.user();
    const res = await h.request('DELETE', '/api/v4/users/me', { as: a });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().id, 'api.user.update_active.not_enable.app_error');
    await h.patchConfig({ TeamSettings: { EnableUserDeactivation: true } });
    try {
      assert.equal((await h.request('DELETE', '/api/v4/users/me', { as: a })).statusCode, 200);
    } finally {
      await h.patchConfig({ TeamSettings: { EnableUserDeactivation: false } });
    }
  });

  it('when a non-admin tries to deactivate a system admin, then 403', async () => {
    const other = await h.user({ roles: 'system_user system_admin' });
    const res = await h.request('DELETE', `/api/v4/users/${other.id}`, { as: { id: 'm'.repeat(26), roles: 'system_user' } });
    assert.equal(res.statusCode, 403);
    assert.equal((await h.request('GET', `/api/v4/users/${other.id}`, { as: admin })).json().delete_at, 0);
  });

  it('when permanent deletion is asked while disabled, then 401 delete_user.not_enabled', async () => {
    const u = await h.user();
    const res = await h.request('DELETE', `/api/v4/users/${u.id}?permanent=true`, { as: admin });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().id, 'api.user.delete_user.not_enabled.app_error');
    await h.patchConfig({ ServiceSettings: { EnableAPIUserDeletion: true } });
    assert.equal((await h.request('DELETE', `/api/v4/users/${u.id}?permanent=true`, { as: admin })).statusCode, 200);
    assert.equal((await h.request('GET', `/api/v4/users/${u.id}`, { as: admin })).statusCode, 404);
  });

  it('when the owner of bots is deactivated, then the bots are disabled and stay disabled after reactivation', async () => {
    const owner = await h.user({ roles: 'system_user system_admin' });
    const bot = (await h.request('POST', '/api/v4/bots', { as: owner, body: { username: 'ownedbot' } })).json();
    h.bus.clear();
    assert.equal((await h.request('PUT', `/api/v4/users/${owner.id}/active`, { as: admin, body: { active: false } })).statusCode, 200);
    assert.ok(h.bus.types().includes('bot.disabled'));
    assert.ok(h.bus.types().includes('user.deactivated'));
    const disabled = (await h.request('GET', `/api/v4/bots/${bot.user_id}?include_deleted=true`, { as: admin })).json();
    assert.ok(disabled.delete_at > 0);
    const orphans = (await h.request('GET', '/api/v4/bots?only_orphaned=true&include_deleted=true', { as: admin })).json();
    assert.deepEqual(orphans.map((b: { user_id: string }) => b.user_id), [bot.user_id]);
    assert.equal((await h.request('PUT', `/api/v4/users/${owner.id}/active`, { as: admin, body: { active: true } })).statusCode, 200);
    assert.ok(h.bus.types().includes('user.activated'));
    const still = (await h.request('GET', `/api/v4/bots/${bot.user_id}?include_deleted=true`, { as: admin })).json();
    assert.ok(still.delete_at > 0);
  });

  it('when DisableBotsWhenOwnerIsDeactivated is off, then the bots keep working', async () => {
    await h.patchConfig({ ServiceSettings: { DisableBotsWhenOwnerIsDeactivated: false } });
    try {
      const owner = await h.user({ roles: 'system_user system_admin' });
      const bot = (await h.request('POST', '/api/v4/bots', { as: owner, body: { username: 'keptbot' } })).json();
      await h.request('DELETE', `/api/v4/users/${owner.id}`, { as: admin });
      assert.equal((await h.request('GET', `/api/v4/bots/${bot.user_id}`, { as: admin })).json().delete_at, 0);
    } finally {
      await h.patchConfig({ ServiceSettings: { DisableBotsWhenOwnerIsDeactivated: true } });
    }
  });

  it('when PUT active is not a boolean or the caller lacks rights, then 400 active / 403 update_active.permissions', async () => {
    const a = await h.user();
    const b = await h.user();
    const bad = await h.request('PUT', `/api/v4/users/${b.id}/active`, { as: admin, body: { active: 'false' } });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().id, 'api.context.invalid_body_param.app_error');
    const denied = await h.request('PUT', `/api/v4/users/${b.id}/active`, { as: a, body: { active: false } });
    assert.equal(denied.statusCode, 403);
    assert.equal(denied.json().id, 'api.user.update_active.permissions.app_error');
    const self = await h.request('PUT', `/api/v4/users/${a.id}/active`, { as: a, body: { active: false } });
    assert.equal(self.statusCode, 401);
    assert.equal(self.json().id, 'api.user.update_active.not_enable.app_error');
  });

  it('when roles are updated, then only manage_roles may, only known system roles pass, and user.roles_updated goes out', async () => {
    const u = await h.user();
    const denied = await h.request('PUT', `/api/v4/users/${u.id}/roles`, { as: u, body: { roles: 'system_user system_admin' } });
    assert.equal(denied.statusCode, 403);
    assert.equal(denied.json().id, 'api.context.permissions.app_error');
    // As the reference: the syntax check comes before the permission check.
    const malformedByUser = await h.request('PUT', `/api/v4/users/${u.id}/roles`, { as: u, body: { roles: 'System-User!' } });
    assert.equal(malformedByUser.statusCode, 400);
    assert.equal(malformedByUser.json().id, 'api.context.invalid_body_param.app_error');
    const unknown = await h.request('PUT', `/api/v4/users/${u.id}/roles`, { as: admin, body: { roles: 'system_user team_admin' } });
    assert.equal(unknown.statusCode, 400);
    assert.equal(unknown.json().id, 'app.role.check_roles_exist.role_not_found');
    const malformed = await h.request('PUT', `/api/v4/users/${u.id}/roles`, { as: admin, body: { roles: 'System-User!' } });
    assert.equal(malformed.json().id, 'api.context.invalid_body_param.app_error');
    const wrongType = await h.request('PUT', `/api/v4/users/${u.id}/roles`, { as: admin, body: { roles: ['system_user'] } });
    assert.equal(wrongType.statusCode, 400);
    h.bus.clear();
    const ok = await h.request('PUT', `/api/v4/users/${u.id}/roles`, { as: admin, body: { roles: 'system_user system_post_all_public system_user_access_token' } });
    assert.equal(ok.statusCode, 200);
    assert.deepEqual(ok.json(), { status: 'OK' });
    assert.deepEqual(h.bus.types(), ['user.roles_updated']);
    assert.equal((await h.request('GET', `/api/v4/users/${u.id}`, { as: admin })).json().roles, 'system_user system_post_all_public system_user_access_token');
    // The reference's UpdateUserRoles answers an unknown user with GetUser's id and status 400, before the role check.
    for (const roles of ['system_user', 'system_user no_such_role']) {
      const missing = await h.request('PUT', `/api/v4/users/${'z'.repeat(26)}/roles`, { as: admin, body: { roles } });
      assert.equal(missing.statusCode, 400, roles);
      assert.equal(missing.json().id, 'app.user.missing_account.const', roles);
    }
  });

  it('when a user is converted to a bot, then a Bot comes back, the password is gone and sessions are revoked', async () => {
    const u = await h.user({ username: 'tobebot' });
    const token = String((await login('tobebot')).headers.token);
    const denied = await h.request('POST', `/api/v4/users/${u.id}/convert_to_bot`, { as: u });
    assert.equal(denied.statusCode, 403);
    const res = await h.request('POST', `/api/v4/users/${u.id}/convert_to_bot`, { as: admin });
    assert.equal(res.statusCode, 200);
    const bot = res.json();
    assert.equal(bot.user_id, u.id);
    assert.equal(bot.username, 'tobebot');
    assert.equal(bot.owner_id, u.id);
    assert.equal(bot.system_owned, false);
    assert.equal((await resolve(token)).statusCode, 401);
    const again = await login('tobebot');
    assert.equal(again.statusCode, 401);
    assert.equal(again.json().id, 'api.user.login.bot_login_forbidden.app_error');
    const asUser = (await h.request('GET', `/api/v4/users/${u.id}`, { as: admin })).json();
    assert.equal(asUser.is_bot, true);
    const twice = await h.request('POST', `/api/v4/users/${u.id}/convert_to_bot`, { as: admin });
    assertError(twice, 400, 'api.user.convert_user_to_bot.already_bot.app_error');
  });
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { httpHarness, type HttpHarness } from '../../test-support/http-harness';

describe('POST /api/v4/users (sign-up)', () => {
  let h: HttpHarness;
  before(async () => {
    h = await httpHarness();
  });
  after(async () => h.stop());

  it('when the first user signs up, then 201 with system_admin system_user, self-sanitised, and user.created published', async () => {
    const res = await h.request('POST', '/api/v4/users', { body: { username: 'Boss', email: 'Boss@Example.com', password: 'password-1', first_name: 'B' } });
    assert.equal(res.statusCode, 201);
    assert.equal(res.headers['content-type'], 'application/json');
    const user = res.json();
    assert.equal(user.username, 'boss');
    assert.equal(user.email, 'boss@example.com');
    assert.equal(user.roles, 'system_admin system_user');
    assert.equal(user.auth_data, '');
    assert.equal(user.password, undefined);
    assert.equal(user.last_login, undefined);
    assert.equal(user.mfa_secret, undefined);
    assert.equal(user.locale, 'en');
    assert.deepEqual(user.timezone, { automaticTimezone: '', manualTimezone: '', useAutomaticTimezone: 'true' });
    assert.equal(user.notify_props.push, 'mention');
    assert.match(user.id, /^[a-z0-9]{26}$/);
    assert.ok(h.bus.types().includes('user.created'));
    h.useAdmin({ id: user.id, roles: user.roles });
  });

  it('when someone else signs up without an open server, then 403 no_open_server and nothing is stored', async () => {
    const res = await h.request('POST', '/api/v4/users', { body: { username: 'second', email: 'second@example.com', password: 'password-1' } });
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().id, 'api.user.create_user.no_open_server');
    const admin = await h.admin();
    const found = await h.request('GET', '/api/v4/users/username/second', { as: admin });
    assert.equal(found.statusCode, 404);
    assert.equal(found.json().id, 'app.user.get_by_username.app_error');
  });

  it('when sign-up with email is disabled, then 501 signup_email_disabled', async () => {
    const fresh = await httpHarness();
    try {
      await fresh.admin();
      await fresh.patchConfig({ EmailSettings: { EnableSignUpWithEmail: false } });
      const res = await fresh.request('POST', '/api/v4/users', { body: { username: 'x1', email: 'x1@example.com', password: 'password-1' } });
      assert.equal(res.statusCode, 501);
      assert.equal(res.json().id, 'api.user.create_user.signup_email_disabled.app_error');
      await fresh.patchConfig({ EmailSettings: { EnableSignUpWithEmail: true }, TeamSettings: { EnableUserCreation: false } });
      const res2 = await fresh.request('POST', '/api/v4/users', { body: { username: 'x1', email: 'x1@example.com', password: 'password-1' } });
      assert.equal(res2.statusCode, 501);
    } finally {
      await fresh.stop();
    }
  });

  it('when the server is open, then anyone may sign up as system_user', async () => {
    const fresh = await httpHarness();
    try {
      await fresh.admin();
      await fresh.patchConfig({ TeamSettings: { EnableOpenServer: true } });
      const res = await fresh.request('POST', '/api/v4/users', { body: { username: 'open1', email: 'open1@example.com', password: 'password-1' } });
      assert.equal(res.statusCode, 201);
      assert.equal(res.json().roles, 'system_user');
    } finally {
      await fresh.stop();
    }
  });

  it('when an admin creates users, then duplicates are 400 username_exists / email_exists', async () => {
    const admin = await h.admin();
    const ok = await h.request('POST', '/api/v4/users', { as: admin, body: { username: 'dup', email: 'dup@example.com', password: 'password-1' } });
    assert.equal(ok.statusCode, 201);
    assert.equal(ok.json().roles, 'system_user');
    const byName = await h.request('POST', '/api/v4/users', { as: admin, body: { username: 'DUP', email: 'other@example.com', password: 'password-1' } });
    assert.equal(byName.statusCode, 400);
    assert.equal(byName.json().id, 'app.user.save.username_exists.app_error');
    const byEmail = await h.request('POST', '/api/v4/users', { as: admin, body: { username: 'dup2', email: 'DUP@example.com', password: 'password-1' } });
    assert.equal(byEmail.statusCode, 400);
    assert.equal(byEmail.json().id, 'app.user.save.email_exists.app_error');
  });

  it('when username, email, password or profile fields break the rules, then 400 with the model id', async () => {
    const admin = await h.admin();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ username: 'bad name', email: 'a1@example.com', password: 'password-1' }, 'model.user.is_valid.username.app_error'],
      [{ username: 'all', email: 'a2@example.com', password: 'password-1' }, 'model.user.is_valid.username.app_error'],
      [{ username: 'x'.repeat(65), email: 'a3@example.com', password: 'password-1' }, 'model.user.is_valid.username.app_error'],
      [{ email: 'a4@example.com', password: 'password-1' }, 'model.user.is_valid.username.app_error'],
      [{ username: 'okname1', email: 'not-an-email', password: 'password-1' }, 'model.user.is_valid.email.app_error'],
      [{ username: 'okname2', email: `${'e'.repeat(120)}@example.com`, password: 'password-1' }, 'model.user.is_valid.email.app_error'],
      [{ username: 'okname3', email: 'a5@example.com', password: 'short' }, 'model.user.is_valid.pwd.app_error'],
      [{ username: 'okname4', email: 'a6@example.com' }, 'model.user.is_valid.pwd.app_error'],
      [{ username: 'okname5', email: 'a7@example.com', password: 'x'.repeat(73) }, 'model.user.is_valid.pwd.app_error'],
      [{ username: 'okname6', email: 'a8@example.com', password: 'password-1', nickname: 'n'.repeat(65) }, 'model.user.is_valid.nickname.app_error'],
      [{ username: 'okname7', email: 'a9@example.com', password: 'password-1', position: 'p'.repeat(129) }, 'model.user.is_valid.position.app_error'],
    ];
    for (const [body, id] of cases) {
      const res = await h.request('POST', '/api/v4/users', { as: admin, body });
      assert.equal(res.statusCode, 400, JSON.stringify(body));
      assert.equal(res.json().id, id, JSON.stringify(body));
    }
    const list = await h.request('GET', '/api/v4/users?per_page=200', { as: admin });
    assert.ok(!list.json().some((u: { username: string }) => u.username.startsWith('okname')));
  });

  it('when the password policy asks for character classes, then the id names them', async () => {
    const fresh = await httpHarness();
    try {
      const admin = await fresh.admin();
      await fresh.patchConfig({ PasswordSettings: { Uppercase: true, Number: true } });
      const res = await fresh.request('POST', '/api/v4/users', { as: admin, body: { username: 'cls', email: 'cls@example.com', password: 'lowercaseonly' } });
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().id, 'model.user.is_valid.pwd_uppercase_number.app_error');
    } finally {
      await fresh.stop();
    }
  });

  it('when a non-admin sends roles, delete_at or auth fields, then they are ignored', async () => {
    const fresh = await httpHarness();
    try {
      const res = await fresh.request('POST', '/api/v4/users', {
        body: { username: 'first', email: 'first@example.com', password: 'password-1', roles: 'system_admin', delete_at: 5, auth_service: 'ldap', email_verified: true, id: 'abc' },
      });
      assert.equal(res.statusCode, 201);
      const user = res.json();
      assert.equal(user.delete_at, 0);
      assert.equal(user.auth_service, '');
      assert.equal(user.email_verified, undefined);
      assert.notEqual(user.id, 'abc');
    } finally {
      await fresh.stop();
    }
  });
});

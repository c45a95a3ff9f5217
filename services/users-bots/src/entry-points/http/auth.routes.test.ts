import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError } from '../../test-support/assert-error';
import { httpHarness, type Caller, type HttpHarness } from '../../test-support/http-harness';

describe('login, logout and sessions', () => {
  let h: HttpHarness;
  let admin: Caller;
  before(async () => {
    h = await httpHarness();
    admin = await h.admin();
  });
  after(async () => h.stop());

  const resolve = (token: string) => h.request('POST', '/internal/v1/auth/resolve', { service: 'gateway', body: { token } });

  it('when credentials are right, then 200 self user, a Token header, and a resolvable session that expires per config', async () => {
    const u = await h.user({ username: 'loginok' });
    const res = await h.request('POST', '/api/v4/users/login', { body: { login_id: 'LoginOK', password: 'password-1' } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().id, u.id);
    assert.equal(res.json().password, undefined);
    const token = String(res.headers.token);
    assert.match(token, /^[a-z0-9]{26}$/);
    assert.equal(res.headers['set-cookie'], undefined);
    const session = (await resolve(token)).json();
    assert.equal(session.userId, u.id);
    assert.equal(session.sessionType, 'session');
    assert.equal(session.isBot, false);
    assert.equal(session.roles, 'system_user');
    assert.ok(Math.abs(session.expiresAt - (h.clock.now() + 720 * 3_600_000)) < 1000);
    const byEmail = await h.request('POST', '/api/v4/users/login', { body: { login_id: u.email.toUpperCase(), password: 'password-1' } });
    assert.equal(byEmail.statusCode, 200);
    const byId = await h.request('POST', '/api/v4/users/login', { body: { id: u.id, password: 'password-1' } });
    assert.equal(byId.statusCode, 200);
  });

  it('when the request says X-Requested-With: XMLHttpRequest, then MMAUTHTOKEN (HttpOnly), MMUSERID and MMCSRF cookies are set', async () => {
    const u = await h.user();
    const res = await h.request('POST', '/api/v4/users/login', { body: { login_id: u.username, password: 'password-1' }, headers: { 'x-requested-with': 'XMLHttpRequest' } });
    const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
    const auth = cookies.find((c) => c.startsWith('MMAUTHTOKEN='));
    assert.ok(auth?.includes(`MMAUTHTOKEN=${String(res.headers.token)}`));
    assert.match(auth ?? '', /HttpOnly/);
    assert.match(auth ?? '', /Path=\//);
    assert.match(auth ?? '', /Max-Age=2592000/);
    assert.ok(cookies.some((c) => c.startsWith(`MMUSERID=${u.id}`) && !c.includes('HttpOnly')));
    const csrf = cookies.find((c) => c.startsWith('MMCSRF='));
    const session = (await resolve(String(res.headers.token))).json();
    assert.ok(csrf?.startsWith(`MMCSRF=${session.csrfToken}`));
  });

  it('when credentials are wrong or unknown, then the masked id depends on the sign-in methods', async () => {
    const u = await h.user();
    const wrong = await h.request('POST', '/api/v4/users/login', { body: { login_id: u.username, password: 'nope-nope' } });
    assert.equal(wrong.statusCode, 401);
    assert.equal(wrong.json().id, 'api.user.login.invalid_credentials_email_username');
    const unknown = await h.request('POST', '/api/v4/users/login', { body: { login_id: 'nobody', password: 'password-1' } });
    assert.equal(unknown.json().id, 'api.user.login.invalid_credentials_email_username');
    await h.patchConfig({ EmailSettings: { EnableSignInWithUsername: false } });
    try {
      const emailOnly = await h.request('POST', '/api/v4/users/login', { body: { login_id: u.username, password: 'password-1' } });
      assert.equal(emailOnly.statusCode, 401);
      assert.equal(emailOnly.json().id, 'api.user.login.invalid_credentials_email');
    } finally {
      await h.patchConfig({ EmailSettings: { EnableSignInWithUsername: true } });
    }
    const blank = await h.request('POST', '/api/v4/users/login', { body: { login_id: u.username, password: '' } });
    assert.equal(blank.statusCode, 400);
    assert.equal(blank.json().id, 'api.user.login.blank_pwd.app_error');
  });

  it('when a bot tries to log in, then 401 bot_login_forbidden', async () => {
    const res = await h.request('POST', '/api/v4/users/login', { body: { login_id: 'switchyard', password: 'whatever-1' } });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().id, 'api.user.login.bot_login_forbidden.app_error');
  });

  const loginAs = (loginId: string, password: string) => h.request('POST', '/api/v4/users/login', { body: { login_id: loginId, password } });
  const WRONG = 'api.user.login.invalid_credentials_email_username';
  const LOCKED = 'api.user.check_user_login_attempts.too_many.app_error';

  it('when the password is wrong nine times, then the right one logs in and resets the count, so nine more wrong ones do not lock either', async () => {
    const u = await h.user();
    for (let round = 0; round < 2; round += 1) {
      for (let i = 0; i < 9; i += 1) assert.equal((await loginAs(u.username, 'wrong-wrong')).json().id, WRONG);
      const ok = await loginAs(u.username, 'password-1');
      assert.equal(ok.statusCode, 200, ok.body);
      assert.equal(ok.json().failed_attempts ?? 0, 0, 'omitempty: 0 is left out');
    }
  });

  it('when the password is wrong ten times, then the tenth failure locks: the right password and an eleventh guess get 401 too_many', async () => {
    const u = await h.user();
    for (let i = 0; i < 10; i += 1) {
      const res = await loginAs(u.username, 'wrong-wrong');
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().id, WRONG, `failure ${i + 1} is still a plain wrong password`);
    }
    for (const password of ['password-1', 'wrong-wrong']) {
      const res = await loginAs(u.username, password);
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().id, LOCKED);
    }
    const byId = await h.request('POST', '/api/v4/users/login', { body: { id: u.id, password: 'password-1' } });
    assert.equal(byId.json().id, LOCKED, 'logging in by id is locked too');
  });

  it('when 30 wrong passwords arrive at once, then only 10 are checked, the rest and then the right password get too_many', async () => {
    const u = await h.user();
    const answers = await Promise.all(Array.from({ length: 30 }, () => loginAs(u.username, 'wrong-wrong')));
    assert.ok(answers.every((res) => res.statusCode === 401));
    const ids = answers.map((res) => res.json().id as string);
    assert.equal(ids.filter((id) => id === WRONG).length, 10);
    assert.equal(ids.filter((id) => id === LOCKED).length, 20);
    assert.equal((await loginAs(u.username, 'password-1')).json().id, LOCKED);
  });

  it('when ServiceSettings.MaximumLoginAttempts is 3, then the third failure locks', async () => {
    const u = await h.user();
    await h.patchConfig({ ServiceSettings: { MaximumLoginAttempts: 3 } });
    try {
      for (let i = 0; i < 3; i += 1) assert.equal((await loginAs(u.username, 'wrong-wrong')).json().id, WRONG);
      assert.equal((await loginAs(u.username, 'password-1')).json().id, LOCKED);
    } finally {
      await h.patchConfig({ ServiceSettings: { MaximumLoginAttempts: 10 } });
    }
    const bad = await h.request('PUT', '/api/v4/config/patch', { as: admin, body: { ServiceSettings: { MaximumLoginAttempts: 0 } } });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().id, 'model.config.is_valid.login_attempts.app_error');
  });

  it('when a session is older than SessionLengthWebInHours, then it no longer resolves', async () => {
    const u = await h.user();
    const token = String((await h.request('POST', '/api/v4/users/login', { body: { login_id: u.username, password: 'password-1' } })).headers.token);
    h.clock.advance(721 * 3_600_000);
    const res = await resolve(token);
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().id, 'api.context.session_expired.app_error');
  });

  it('when logging out, then the cookie is cleared, the session revoked and session.revoked published; no session is fine too', async () => {
    const u = await h.user();
    const token = String((await h.request('POST', '/api/v4/users/login', { body: { login_id: u.username, password: 'password-1' } })).headers.token);
    const session = (await resolve(token)).json();
    h.bus.clear();
    const res = await h.request('POST', '/api/v4/users/logout', { as: { id: u.id, roles: 'system_user', sessionId: session.sessionId } });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { status: 'OK' });
    assert.ok(([] as string[]).concat(res.headers['set-cookie'] ?? []).some((c) => c.startsWith('MMAUTHTOKEN=;') && c.includes('Max-Age=0')));
    assert.deepEqual(h.bus.types(), ['session.revoked']);
    assertError(await resolve(token), 401, 'api.context.session_expired.app_error');
    const anonymous = await h.request('POST', '/api/v4/users/logout');
    assert.equal(anonymous.statusCode, 200);
  });

  it('when listing and revoking sessions, then only yours (or with edit_other_users) and the token dies', async () => {
    const u = await h.user();
    const other = await h.user();
    const token = String((await h.request('POST', '/api/v4/users/login', { body: { login_id: u.username, password: 'password-1' } })).headers.token);
    const list = await h.request('GET', `/api/v4/users/${u.id}/sessions`, { as: u });
    assert.equal(list.statusCode, 200);
    assert.equal(list.json().length, 1);
    assert.equal(list.json()[0].token, '');
    assert.equal((await h.request('GET', `/api/v4/users/${u.id}/sessions`, { as: other })).statusCode, 403);
    const sessionId = list.json()[0].id;
    const wrongUser = await h.request('POST', `/api/v4/users/${other.id}/sessions/revoke`, { as: admin, body: { session_id: sessionId } });
    assert.equal(wrongUser.statusCode, 400);
    const bad = await h.request('POST', `/api/v4/users/${u.id}/sessions/revoke`, { as: u, body: { session_id: 'nope' } });
    assert.equal(bad.statusCode, 400);
    const ok = await h.request('POST', `/api/v4/users/${u.id}/sessions/revoke`, { as: u, body: { session_id: sessionId } });
    assert.equal(ok.statusCode, 200);
    assertError(await resolve(token), 401, 'api.context.session_expired.app_error');
  });
});

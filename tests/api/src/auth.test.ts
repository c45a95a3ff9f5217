import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectClientError, newClient } from './support/client';
import { createUser, createUserSession, patchConfig, uniqueName, type AdminSession } from './support/fixtures';
import { givenAdminWorld } from './support/admin-world';
import { assertAppError, assertJson, cookieLine, cookieValue, raw } from './support/http';
import type { Target } from './support/target';

const TOKEN = /^[a-z0-9]{26}$/;

describe('authentication', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
  });
  after(() => target?.stop());

  /** Logs in with raw fetch, as a browser would (X-Requested-With), and returns the cookies. */
  async function cookieLogin(loginId: string, password: string) {
    const response = await raw(target.url, 'POST', '/api/v4/users/login', {
      body: { login_id: loginId, password },
      headers: { 'X-Requested-With': 'XMLHttpRequest' },
    });
    assertJson(response, 200);
    const auth = cookieValue(response.cookies, 'MMAUTHTOKEN');
    const csrf = cookieValue(response.cookies, 'MMCSRF');
    assert.ok(auth && csrf, `expected MMAUTHTOKEN and MMCSRF cookies, got ${JSON.stringify(response.cookies)}`);
    return { response, auth, csrf, cookie: `MMAUTHTOKEN=${auth}; MMCSRF=${csrf}` };
  }

  describe('login', () => {
    it('when a user logs in with the official client, then the Token header becomes its bearer token', async () => {
      const created = await createUser(admin.client, 'login');
      const client = newClient(target.url);
      const user = await client.login(created.username, created.password);
      assert.equal(user.id, created.user.id);
      assert.equal(user.password, undefined, 'the login answer is sanitised');
      assert.match(client.getToken(), TOKEN);
      assert.equal((await client.getMe()).id, created.user.id);
    });

    it('when a user logs in with the e-mail address, then it works too', async () => {
      const created = await createUser(admin.client, 'mail');
      const response = await raw(target.url, 'POST', '/api/v4/users/login', { body: { login_id: created.email, password: created.password } });
      assertJson(response, 200);
      assert.equal(response.json.id, created.user.id);
      assert.match(response.headers.get('token') ?? '', TOKEN);
    });

    it('when the login id is the username or e-mail in another case, or the user id (loginById), then it works', async () => {
      const created = await createUser(admin.client, 'case');
      const upper = await raw(target.url, 'POST', '/api/v4/users/login', { body: { login_id: created.username.toUpperCase(), password: created.password } });
      assertJson(upper, 200);
      assert.equal(upper.json.id, created.user.id);
      const upperEmail = await raw(target.url, 'POST', '/api/v4/users/login', { body: { login_id: created.email.toUpperCase(), password: created.password } });
      assertJson(upperEmail, 200);
      const byId = await newClient(target.url).loginById(created.user.id, created.password);
      assert.equal(byId.id, created.user.id);
    });

    it('when the password is wrong or the user unknown, then 401 api.user.login.invalid_credentials_email_username', async () => {
      const created = await createUser(admin.client, 'wrong');
      await expectClientError(newClient(target.url).login(created.username, 'Not-the-password1'), 401, 'api.user.login.invalid_credentials_email_username');
      const unknown = await raw(target.url, 'POST', '/api/v4/users/login', { body: { login_id: uniqueName('ghost'), password: 'whatever-pass1' } });
      assertAppError(unknown, 401, 'api.user.login.invalid_credentials_email_username');
      assert.equal(unknown.headers.get('token'), null);
    });

    it('when a deactivated user logs in, then 401 api.user.login.inactive.app_error', async () => {
      const created = await createUser(admin.client, 'inactive');
      await admin.client.updateUserActive(created.user.id, false);
      await expectClientError(newClient(target.url).login(created.username, created.password), 401, 'api.user.login.inactive.app_error');
    });

    it('when a bot logs in, then 401 api.user.login.bot_login_forbidden.app_error', async () => {
      const created = await createUser(admin.client, 'wasbot');
      const converted = await raw(target.url, 'POST', `/api/v4/users/${created.user.id}/convert_to_bot`, { token: admin.token });
      assertJson(converted, 200);
      await expectClientError(newClient(target.url).login(created.username, created.password), 401, 'api.user.login.bot_login_forbidden.app_error');
    });

    it('when the login request has X-Requested-With, then MMAUTHTOKEN (HttpOnly), MMUSERID and MMCSRF cookies are set', async () => {
      const created = await createUser(admin.client, 'cookie');
      const { response, auth } = await cookieLogin(created.username, created.password);
      assert.equal(auth, response.headers.get('token'));
      assert.match(cookieLine(response.cookies, 'MMAUTHTOKEN') ?? '', /HttpOnly/i);
      assert.equal(cookieValue(response.cookies, 'MMUSERID'), created.user.id);
      assert.match(cookieLine(response.cookies, 'MMAUTHTOKEN') ?? '', /Path=\//i);
    });

    it('when the login request has no X-Requested-With, then no cookies are set', async () => {
      const created = await createUser(admin.client, 'nocookie');
      const response = await raw(target.url, 'POST', '/api/v4/users/login', { body: { login_id: created.username, password: created.password } });
      assertJson(response, 200);
      assert.equal(cookieValue(response.cookies, 'MMAUTHTOKEN'), undefined);
    });
  });

  describe('logout and sessions', () => {
    it('when a user logs out, then {"status":"OK"} and the old token is refused with 401 at once', async () => {
      const session = await createUserSession(target.url, admin.client, 'logout');
      const token = session.token;
      const response = await raw(target.url, 'POST', '/api/v4/users/logout', { token });
      assertJson(response, 200);
      assert.deepEqual(response.json, { status: 'OK' });
      assertAppError(await raw(target.url, 'GET', '/api/v4/users/me', { token }), 401, 'api.context.session_expired.app_error');
    });

    it('when a cookie session logs out, then the MMAUTHTOKEN cookie is cleared', async () => {
      const created = await createUser(admin.client, 'clear');
      const { cookie } = await cookieLogin(created.username, created.password);
      const response = await raw(target.url, 'POST', '/api/v4/users/logout', { headers: { Cookie: cookie, 'X-Requested-With': 'XMLHttpRequest' } });
      assertJson(response, 200);
      const line = cookieLine(response.cookies, 'MMAUTHTOKEN') ?? '';
      assert.match(line, /Max-Age=(0|-1)|Expires=Thu, 01 Jan 1970/i, `cleared cookie, got ${line}`);
      assertAppError(await raw(target.url, 'GET', '/api/v4/users/me', { headers: { Cookie: cookie } }), 401, 'api.context.session_expired.app_error');
    });

    it('when a user logs out with the official client, then the client drops its token and the session is gone', async () => {
      const session = await createUserSession(target.url, admin.client, 'logout');
      const response = await session.client.logout();
      assert.equal(response.status, 200);
      assert.equal(session.client.getToken(), '');
      assertAppError(await raw(target.url, 'GET', '/api/v4/users/me', { token: session.token }), 401, 'api.context.session_expired.app_error');
    });

    it('when logout is called without a session, then 200 {"status":"OK"}', async () => {
      const response = await raw(target.url, 'POST', '/api/v4/users/logout');
      assertJson(response, 200);
      assert.deepEqual(response.json, { status: 'OK' });
    });

    it('when a user is deactivated, then its session token is refused with 401 at once', async () => {
      const session = await createUserSession(target.url, admin.client, 'revoked');
      assert.equal((await session.client.getMe()).id, session.user.id);
      await admin.client.updateUserActive(session.user.id, false);
      await expectClientError(session.client.getMe(), 401, 'api.context.session_expired.app_error');
    });
  });

  describe('tokens on requests', () => {
    it('when there is no token, then 401 api.context.session_expired.app_error', async () => {
      assertAppError(await raw(target.url, 'GET', '/api/v4/users/me'), 401, 'api.context.session_expired.app_error');
      await expectClientError(newClient(target.url).getMe(), 401, 'api.context.session_expired.app_error');
    });

    it('when the token is unknown or malformed, then 401 api.context.session_expired.app_error', async () => {
      for (const token of ['a'.repeat(26), 'garbage', '']) {
        assertAppError(await raw(target.url, 'GET', '/api/v4/users/me', { token }), 401, 'api.context.session_expired.app_error');
      }
      await expectClientError(newClient(target.url, 'b'.repeat(26)).getMe(), 401, 'api.context.session_expired.app_error');
      assertAppError(
        await raw(target.url, 'GET', '/api/v4/users/me', { headers: { Authorization: 'Basic dXNlcjpwYXNz' } }),
        401,
        'api.context.session_expired.app_error',
      );
    });

    it('when the Authorization header uses BEARER or token in any case, then the session is found', async () => {
      const session = await createUserSession(target.url, admin.client, 'scheme');
      for (const header of [`BEARER ${session.token}`, `bearer ${session.token}`, `token ${session.token}`, `Token ${session.token}`]) {
        const response = await raw(target.url, 'GET', '/api/v4/users/me', { headers: { Authorization: header } });
        assertJson(response, 200);
        assert.equal(response.json.id, session.user.id, header.split(' ')[0]);
      }
    });

    it('when a session token is passed in the access_token query parameter, then 401 api.context.token_provided.app_error', async () => {
      const session = await createUserSession(target.url, admin.client, 'query');
      const response = await raw(target.url, 'GET', `/api/v4/users/me?access_token=${session.token}`);
      assertAppError(response, 401, 'api.context.token_provided.app_error');
    });

    it('when a request carries both the cookie and a bearer token, then the cookie wins', async () => {
      const cookieUser = await createUser(admin.client, 'ck');
      const bearer = await createUserSession(target.url, admin.client, 'br');
      const { cookie } = await cookieLogin(cookieUser.username, cookieUser.password);
      const response = await raw(target.url, 'GET', '/api/v4/users/me', { token: bearer.token, headers: { Cookie: cookie } });
      assertJson(response, 200);
      assert.equal(response.json.id, cookieUser.user.id);
    });
  });

  describe('cookie authentication and CSRF', () => {
    it('when a GET is authenticated by the cookie alone, then it succeeds', async () => {
      const created = await createUser(admin.client, 'get');
      const { auth } = await cookieLogin(created.username, created.password);
      const response = await raw(target.url, 'GET', '/api/v4/users/me', { headers: { Cookie: `MMAUTHTOKEN=${auth}` } });
      assertJson(response, 200);
      assert.equal(response.json.id, created.user.id);
    });

    it('when a cookie-authenticated POST has neither X-CSRF-Token nor X-Requested-With, then 401 api.context.session_expired.app_error', async () => {
      const created = await createUser(admin.client, 'csrf');
      const { cookie } = await cookieLogin(created.username, created.password);
      const response = await raw(target.url, 'POST', '/api/v4/users/ids', { body: [created.user.id], headers: { Cookie: cookie } });
      assertAppError(response, 401, 'api.context.session_expired.app_error');
    });

    it('when a cookie-authenticated POST has a wrong X-CSRF-Token and no X-Requested-With, then 401', async () => {
      const created = await createUser(admin.client, 'csrfx');
      const { cookie } = await cookieLogin(created.username, created.password);
      const response = await raw(target.url, 'POST', '/api/v4/users/ids', {
        body: [created.user.id],
        headers: { Cookie: cookie, 'X-CSRF-Token': 'c'.repeat(26) },
      });
      assertAppError(response, 401, 'api.context.session_expired.app_error');
    });

    it('when a cookie-authenticated POST has the MMCSRF value as X-CSRF-Token, or X-Requested-With, then it succeeds', async () => {
      const created = await createUser(admin.client, 'csrfok');
      const { cookie, csrf } = await cookieLogin(created.username, created.password);
      const withToken = await raw(target.url, 'POST', '/api/v4/users/ids', { body: [created.user.id], headers: { Cookie: cookie, 'X-CSRF-Token': csrf } });
      assertJson(withToken, 200);
      assert.equal(withToken.json[0].id, created.user.id);
      const withXhr = await raw(target.url, 'POST', '/api/v4/users/ids', {
        body: [created.user.id],
        headers: { Cookie: cookie, 'X-Requested-With': 'XMLHttpRequest' },
      });
      assertJson(withXhr, 200);
    });

    it('when a bearer-authenticated POST has no CSRF header, then it succeeds (CSRF applies to cookies only)', async () => {
      const session = await createUserSession(target.url, admin.client, 'nocsrf');
      const response = await raw(target.url, 'POST', '/api/v4/users/ids', { token: session.token, body: [session.user.id] });
      assertJson(response, 200);
    });

    it('when ExperimentalStrictCSRFEnforcement is on, then X-Requested-With alone no longer passes, the CSRF token does', async () => {
      const created = await createUser(admin.client, 'strict');
      const { cookie, csrf } = await cookieLogin(created.username, created.password);
      await patchConfig(admin.client, { ServiceSettings: { ExperimentalStrictCSRFEnforcement: true } });
      try {
        const xhrOnly = await raw(target.url, 'POST', '/api/v4/users/ids', {
          body: [created.user.id],
          headers: { Cookie: cookie, 'X-Requested-With': 'XMLHttpRequest' },
        });
        assertAppError(xhrOnly, 401, 'api.context.session_expired.app_error');
        const withToken = await raw(target.url, 'POST', '/api/v4/users/ids', { body: [created.user.id], headers: { Cookie: cookie, 'X-CSRF-Token': csrf } });
        assertJson(withToken, 200);
      } finally {
        await patchConfig(admin.client, { ServiceSettings: { ExperimentalStrictCSRFEnforcement: false } });
      }
    });
  });
});

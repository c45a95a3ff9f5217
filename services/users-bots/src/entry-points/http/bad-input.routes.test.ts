import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { adminHarness, type Caller, type HttpHarness } from '../../test-support/http-harness';

/** Hostile or broken bodies: always 400 with an error id, and nothing stored. */
describe('bad input', () => {
  let h: HttpHarness;
  let admin: Caller;
  before(async () => {
    ({ h, admin } = await adminHarness({ EnableBotAccountCreation: true, EnableUserAccessTokens: true }));
  });
  after(async () => h.stop());

  const userCount = async () => (await h.request('GET', '/api/v4/users?per_page=200', { as: admin })).json().length as number;
  const botCount = async () => (await h.request('GET', '/api/v4/bots?per_page=200&include_deleted=true', { as: admin })).json().length as number;

  it('when bodies are malformed JSON, then 400 invalid_body_param everywhere', async () => {
    const targets: Array<[string, string]> = [
      ['POST', '/api/v4/users'],
      ['POST', '/api/v4/users/login'],
      ['POST', '/api/v4/bots'],
      ['POST', '/api/v4/teams'],
      ['PUT', '/api/v4/config/patch'],
      ['POST', `/api/v4/users/${admin.id}/tokens`],
      ['PUT', `/api/v4/users/${admin.id}/roles`],
      ['POST', '/internal/v1/auth/resolve'],
    ];
    for (const raw of ['{"username": "x",', '{bad json}', '"unterminated']) {
      for (const [method, url] of targets) {
        const res = await h.request(method, url, url.startsWith('/internal/') ? { service: 'gateway', raw } : { as: admin, raw });
        assert.equal(res.statusCode, 400, `${method} ${url} ${raw}`);
        assert.equal(res.json().id, 'api.context.invalid_body_param.app_error');
      }
    }
  });

  it('when a string field carries an operator object like {"$gt":""}, then 400 and nothing stored', async () => {
    const users = await userCount();
    const bots = await botCount();
    const cases: Array<[string, string, unknown]> = [
      ['POST', '/api/v4/users', { username: { $gt: '' }, email: 'op@example.com', password: 'password-1' }],
      ['POST', '/api/v4/users', { username: 'opuser', email: { $ne: null }, password: 'password-1' }],
      ['POST', '/api/v4/users', { username: 'opuser', email: 'op@example.com', password: { $gt: '' } }],
      ['POST', '/api/v4/users/login', { login_id: { $gt: '' }, password: { $gt: '' } }],
      ['POST', '/api/v4/bots', { username: { $gt: '' } }],
      ['POST', '/api/v4/bots', { username: 'opbot', description: ['x'] }],
      ['POST', '/api/v4/teams', { name: { $gt: '' }, display_name: 'x', type: 'O' }],
      ['POST', '/api/v4/users/usernames', [{ $gt: '' }]],
      ['POST', '/api/v4/users/ids', [{ $gt: '' }]],
      ['PUT', `/api/v4/users/${admin.id}/active`, { active: { $ne: false } }],
    ];
    for (const [method, url, body] of cases) {
      const res = await h.request(method, url, { as: admin, body });
      assert.equal(res.statusCode, 400, `${method} ${url} ${JSON.stringify(body)}`);
      assert.match(res.json().id, /\.app_error$|^api\./, url);
    }
    assert.equal(await userCount(), users);
    assert.equal(await botCount(), bots);
  });

  it('when a body has __proto__ or constructor.prototype keys, then 400 and nothing stored', async () => {
    const users = await userCount();
    const raws = [
      '{"username":"proto1","email":"proto1@example.com","password":"password-1","__proto__":{"roles":"system_admin"}}',
      '{"username":"proto2","email":"proto2@example.com","password":"password-1","props":{"__proto__":{"x":"y"}}}',
      '{"username":"proto3","email":"proto3@example.com","password":"password-1","constructor":{"prototype":{"x":"y"}}}',
    ];
    for (const raw of raws) {
      const res = await h.request('POST', '/api/v4/users', { as: admin, raw });
      assert.equal(res.statusCode, 400, raw);
      assert.equal(res.json().id, 'api.context.invalid_body_param.app_error');
    }
    const patch = await h.request('PUT', '/api/v4/config/patch', { as: admin, raw: '{"__proto__":{"polluted":true}}' });
    assert.equal(patch.statusCode, 400);
    assert.equal(patch.json().id, 'api.context.invalid_body_param.app_error');
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(await userCount(), users);
  });

  it('when the body is missing or of the wrong JSON type, then 400 invalid_body_param', async () => {
    const answers = [
      await h.request('POST', '/api/v4/users', { as: admin }),
      await h.request('POST', '/api/v4/users', { as: admin, body: [] }),
      await h.request('POST', '/api/v4/users', { as: admin, body: 'string' }),
      await h.request('POST', '/api/v4/bots', { as: admin, body: null }),
      await h.request('PUT', '/api/v4/config', { as: admin }),
    ];
    for (const [i, res] of answers.entries()) {
      assert.equal(res.statusCode, 400, `answer ${i}`);
      assert.equal(res.json().id, 'api.context.invalid_body_param.app_error', `answer ${i}`);
    }
  });

  it('when a login body is not an object of strings, then it is read as the reference reads it (MapFromJSON)', async () => {
    // Not an object: an empty map, so a blank password (400).
    for (const body of [42, [], 'string', null]) {
      const res = await h.request('POST', '/api/v4/users/login', { body });
      assert.equal(res.statusCode, 400, JSON.stringify(body));
      assert.equal(res.json().id, 'api.user.login.blank_pwd.app_error', JSON.stringify(body));
    }
    // A non-string field is absent: a numeric password is blank; a numeric login id finds nobody (masked 401).
    const numericPassword = await h.request('POST', '/api/v4/users/login', { body: { login_id: 'admin', password: 12345678 } });
    assert.equal(numericPassword.statusCode, 400);
    assert.equal(numericPassword.json().id, 'api.user.login.blank_pwd.app_error');
    const numericLogin = await h.request('POST', '/api/v4/users/login', { body: { login_id: 42, password: 'password-1', extra: { deep: [1] } } });
    assert.equal(numericLogin.statusCode, 401);
    assert.equal(numericLogin.json().id, 'api.user.login.invalid_credentials_email_username');
  });

  it('when an unknown route is asked, then 404 api.context.404.app_error', async () => {
    const res = await h.request('GET', '/api/v4/users/me/nothing-here', { as: admin });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().id, 'api.context.404.app_error');
  });
});

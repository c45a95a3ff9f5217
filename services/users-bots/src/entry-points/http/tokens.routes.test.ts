import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError } from '../../test-support/assert-error';
import { adminHarness, type Caller, type HttpHarness } from '../../test-support/http-harness';

/** The reference's GetUserAccessToken (app/user.go) answers an unknown token id with this id, 404. */
const TOKEN_NOT_FOUND = 'app.user_access_token.get_by_user.app_error';

describe('personal access tokens and bot tokens', () => {
  let h: HttpHarness;
  let admin: Caller;
  before(async () => {
    ({ h, admin } = await adminHarness({ EnableBotAccountCreation: true }));
  });
  after(async () => h.stop());

  const resolve = (token: string) => h.request('POST', '/internal/v1/auth/resolve', { service: 'gateway', body: { token } });
  const newBot = async (username: string) => (await h.request('POST', '/api/v4/bots', { as: admin, body: { username } })).json() as { user_id: string };

  it('when tokens are disabled, then humans get 501 but bot tokens are created and keep working', async () => {
    const human = await h.request('POST', `/api/v4/users/${admin.id}/tokens`, { as: admin, body: { description: 'mine' } });
    assert.equal(human.statusCode, 501);
    assert.equal(human.json().id, 'app.user_access_token.disabled');
    const bot = await newBot('tokenbot');
    const res = await h.request('POST', `/api/v4/users/${bot.user_id}/tokens`, { as: admin, body: { description: 'ci', expires_at: Date.now() + 1000 } });
    assert.equal(res.statusCode, 200);
    const token = res.json();
    assert.match(token.token, /^[a-z0-9]{26}$/);
    assert.equal(token.user_id, bot.user_id);
    assert.equal(token.is_active, true);
    assert.equal(token.expires_at, 0);
    const session = await resolve(token.token);
    assert.equal(session.statusCode, 200);
    assert.equal(session.json().isBot, true);
    assert.equal(session.json().sessionType, 'UserAccessToken');
    assert.equal(session.json().tokenId, token.id);
    assert.equal(session.json().expiresAt, 0);
    assert.equal((await resolve(token.token)).json().sessionId, session.json().sessionId);
  });

  it('when a human PAT exists and tokens get disabled, then it stops resolving and works again when re-enabled', async () => {
    await h.patchConfig({ ServiceSettings: { EnableUserAccessTokens: true } });
    const u = await h.user({ roles: 'system_user system_user_access_token' });
    const created = await h.request('POST', `/api/v4/users/${u.id}/tokens`, { as: u, body: { description: 'script' } });
    assert.equal(created.statusCode, 200);
    const secret = created.json().token;
    assert.equal((await resolve(secret)).statusCode, 200);
    await h.patchConfig({ ServiceSettings: { EnableUserAccessTokens: false } });
    const refused = await resolve(secret);
    assert.equal(refused.statusCode, 401);
    assert.equal(refused.json().id, 'api.context.session_expired.app_error');
    await h.patchConfig({ ServiceSettings: { EnableUserAccessTokens: true } });
    assert.equal((await resolve(secret)).statusCode, 200);
  });

  it('when the description is missing or too long, or expires_at is negative, then 400 with the right id and nothing stored', async () => {
    const u = await h.user({ roles: 'system_user system_user_access_token' });
    const missing = await h.request('POST', `/api/v4/users/${u.id}/tokens`, { as: u, body: {} });
    assert.equal(missing.statusCode, 400);
    assert.equal(missing.json().id, 'api.context.invalid_body_param.app_error');
    assert.match(missing.json().message, /description/);
    const long = await h.request('POST', `/api/v4/users/${u.id}/tokens`, { as: u, body: { description: 'd'.repeat(256) } });
    assert.equal(long.json().id, 'model.user_access_token.is_valid.description.app_error');
    const negative = await h.request('POST', `/api/v4/users/${u.id}/tokens`, { as: u, body: { description: 'x', expires_at: -1 } });
    assert.equal(negative.json().id, 'model.user_access_token.is_valid.expires_at.app_error');
    const wrongType = await h.request('POST', `/api/v4/users/${u.id}/tokens`, { as: u, body: { description: 'x', expires_at: '5' } });
    assert.equal(wrongType.statusCode, 400);
    assert.deepEqual((await h.request('GET', `/api/v4/users/${u.id}/tokens`, { as: u })).json(), []);
  });

  it('when a caller lacks the token permissions or targets someone else, then 403', async () => {
    const plain = await h.user();
    const res = await h.request('POST', `/api/v4/users/${plain.id}/tokens`, { as: plain, body: { description: 'x' } });
    assert.equal(res.statusCode, 403);
    const holder = await h.user({ roles: 'system_user system_user_access_token' });
    const other = await h.request('POST', `/api/v4/users/${plain.id}/tokens`, { as: holder, body: { description: 'x' } });
    assert.equal(other.statusCode, 403);
    assert.equal(other.json().id, 'api.context.permissions.app_error'); // detail (edit_other_users) shows only with EnableDeveloper
  });

  it('when an expiring PAT passes its expiry, then it no longer resolves', async () => {
    const u = await h.user({ roles: 'system_user system_user_access_token' });
    const created = (await h.request('POST', `/api/v4/users/${u.id}/tokens`, { as: u, body: { description: 'short', expires_at: h.clock.now() + 60_000 } })).json();
    assert.equal((await resolve(created.token)).statusCode, 200);
    h.clock.advance(61_000);
    assertError(await resolve(created.token), 401, 'api.context.session_expired.app_error');
  });

  it('when tokens are listed and read, then the secret never shows again', async () => {
    const u = await h.user({ roles: 'system_user system_user_access_token' });
    const created = (await h.request('POST', `/api/v4/users/${u.id}/tokens`, { as: u, body: { description: 'read me' } })).json();
    const list = await h.request('GET', `/api/v4/users/${u.id}/tokens`, { as: u });
    assert.deepEqual(list.json(), [{ id: created.id, user_id: u.id, description: 'read me', is_active: true, expires_at: 0 }]);
    const one = await h.request('GET', `/api/v4/users/tokens/${created.id}`, { as: u });
    assert.equal(one.statusCode, 200);
    assert.equal(one.json().token, undefined);
    assert.equal((await h.request('GET', '/api/v4/users/tokens/bad', { as: u })).statusCode, 400);
    const unknown = await h.request('GET', `/api/v4/users/tokens/${'q'.repeat(26)}`, { as: u });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().id, TOKEN_NOT_FOUND);
    assert.equal((await h.request('GET', '/api/v4/users/tokens', { as: u })).statusCode, 403);
    const all = await h.request('GET', '/api/v4/users/tokens?per_page=200', { as: admin });
    assert.ok(all.json().some((t: { id: string; token?: string }) => t.id === created.id && t.token === undefined));
  });

  it('when a token is disabled, enabled and revoked, then its session follows and events go out before the answer', async () => {
    const u = await h.user({ roles: 'system_user system_user_access_token' });
    const created = (await h.request('POST', `/api/v4/users/${u.id}/tokens`, { as: u, body: { description: 'cycle' } })).json();
    assert.equal((await resolve(created.token)).statusCode, 200);
    h.bus.clear();
    assert.equal((await h.request('POST', '/api/v4/users/tokens/disable', { as: u, body: { token_id: created.id } })).statusCode, 200);
    const disabled = h.bus.published.find((p) => p.value.type === 'token.disabled');
    assert.equal(disabled?.key, u.id);
    assert.equal((disabled?.value.payload.sessionIds as string[]).length, 1);
    assert.equal((await resolve(created.token)).statusCode, 401);
    assert.equal((await h.request('GET', `/api/v4/users/tokens/${created.id}`, { as: u })).json().is_active, false);
    assert.equal((await h.request('POST', '/api/v4/users/tokens/enable', { as: u, body: { token_id: created.id } })).statusCode, 200);
    assert.equal((await resolve(created.token)).statusCode, 200);
    h.bus.clear();
    assert.equal((await h.request('POST', '/api/v4/users/tokens/revoke', { as: u, body: { token_id: created.id } })).statusCode, 200);
    assert.deepEqual(h.bus.types(), ['token.revoked']);
    assert.equal((await resolve(created.token)).statusCode, 401);
    const gone = await h.request('GET', `/api/v4/users/tokens/${created.id}`, { as: u });
    assert.equal(gone.statusCode, 404);
    assert.equal(gone.json().id, TOKEN_NOT_FOUND);
    for (const action of ['revoke', 'disable', 'enable']) {
      const again = await h.request('POST', `/api/v4/users/tokens/${action}`, { as: u, body: { token_id: created.id } });
      assert.equal(again.statusCode, 404, action);
      assert.equal(again.json().id, TOKEN_NOT_FOUND, action);
    }
    // A string that is not an id is looked up and found nowhere (404), as the reference; a missing or
    // non-string token_id is 400 (the reference's empty-id check does not return and it answers 404 there too).
    for (const action of ['revoke', 'disable', 'enable']) {
      assertError(await h.request('POST', `/api/v4/users/tokens/${action}`, { as: u, body: { token_id: 'bad' } }), 404, TOKEN_NOT_FOUND);
      assertError(await h.request('POST', `/api/v4/users/tokens/${action}`, { as: u, body: { token_id: 'x'.repeat(64) } }), 404, TOKEN_NOT_FOUND);
    }
    assertError(await h.request('POST', '/api/v4/users/tokens/revoke', { as: u, body: { token_id: { $gt: '' } } }), 400, 'api.context.invalid_body_param.app_error');
    assertError(await h.request('POST', '/api/v4/users/tokens/revoke', { as: u, body: {} }), 400, 'api.context.invalid_body_param.app_error');
  });

  it('when someone else revokes a token without rights, then 403', async () => {
    const u = await h.user({ roles: 'system_user system_user_access_token' });
    const other = await h.user({ roles: 'system_user system_user_access_token' });
    const created = (await h.request('POST', `/api/v4/users/${u.id}/tokens`, { as: u, body: { description: 'mine' } })).json();
    assertError(await h.request('POST', '/api/v4/users/tokens/revoke', { as: other, body: { token_id: created.id } }), 403, 'api.context.permissions.app_error');
    assert.equal((await resolve(created.token)).statusCode, 200);
  });

  it('when the token user is deactivated, then the token stops resolving', async () => {
    const bot = await newBot('deactbot');
    const created = (await h.request('POST', `/api/v4/users/${bot.user_id}/tokens`, { as: admin, body: { description: 'x' } })).json();
    assert.equal((await resolve(created.token)).statusCode, 200);
    assert.equal((await h.request('POST', `/api/v4/bots/${bot.user_id}/disable`, { as: admin })).statusCode, 200);
    assertError(await resolve(created.token), 401, 'api.context.session_expired.app_error');
    assert.equal((await h.request('POST', `/api/v4/bots/${bot.user_id}/enable`, { as: admin })).statusCode, 200);
    assert.equal((await resolve(created.token)).statusCode, 200);
  });
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError } from '../../test-support/assert-error';
import { adminHarness, type Caller, type HttpHarness } from '../../test-support/http-harness';

describe('PUT /users/{user_id} (a whole User)', () => {
  let h: HttpHarness;
  let admin: Caller;
  before(async () => {
    ({ h, admin } = await adminHarness());
  });
  after(async () => h.stop());

  const put = (as: Caller, userId: string, body: unknown) => h.request('PUT', `/api/v4/users/${userId}`, { as, body });
  const me = async (as: Caller) => (await h.request('GET', '/api/v4/users/me', { as })).json() as Record<string, unknown>;

  it('when a user sends back their own User with new notify props, then they replace the stored ones; roles and deactivation cannot be set', async () => {
    const u = await h.user();
    const body = { ...(await me(u)), nickname: 'nick', notify_props: { mention_keys: 'Deploy', channel: 'true' }, roles: 'system_admin system_user', delete_at: 5 };
    h.bus.clear();
    const res = await put(u, 'me', body);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().nickname, 'nick');
    assert.deepEqual(res.json().notify_props, { mention_keys: 'deploy', channel: 'true' });
    assert.equal(res.json().roles, 'system_user');
    assert.equal(res.json().delete_at, 0);
    assert.equal(h.bus.published.find((p) => p.value.type === 'user.updated')?.key, u.id);
  });

  it('when fields are left out, then they are emptied as the reference decodes them: notify props become the defaults, no username is invalid', async () => {
    const u = await h.user();
    const full = await me(u);
    const res = await put(u, u.id, { id: u.id, username: full.username, email: full.email });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().notify_props.channel, 'true');
    assert.equal(res.json().notify_props.mention_keys, '');
    assertError(await put(u, u.id, { id: u.id, email: full.email }), 400, 'model.user.is_valid.username.app_error');
  });

  it('when the body names another id, the types are wrong, or the caller may not, then the reference answers', async () => {
    const u = await h.user();
    const other = await h.user();
    const full = await me(u);
    assertError(await put(u, u.id, { ...full, id: other.id }), 400, 'api.context.invalid_body_param.app_error');
    assertError(await put(u, u.id, { ...full, id: undefined }), 400, 'api.context.invalid_body_param.app_error');
    assertError(await put(u, u.id, { ...full, roles: 5 }), 400, 'api.context.invalid_body_param.app_error');
    assertError(await put(other, u.id, full), 403, 'api.context.permissions.app_error');
    assert.equal((await put(admin, u.id, { ...full, nickname: 'by admin' })).json().nickname, 'by admin');
    const unknown = 'u'.repeat(26);
    assertError(await put(admin, unknown, { ...full, id: unknown }), 404, 'app.user.missing_account.const');
  });

  it('when a user changes their own email, then a wrong or missing password is 400 password; renaming drops the old name from the mention keys', async () => {
    const u = await h.user({ password: 'password-1' });
    const full = await me(u);
    assertError(await put(u, u.id, { ...full, email: `x-${u.email}` }), 400, 'api.context.invalid_body_param.app_error');
    assertError(await put(u, u.id, { ...full, email: `x-${u.email}`, password: 'nope' }), 400, 'api.context.invalid_body_param.app_error');
    const changed = await put(u, u.id, { ...full, email: `x-${u.email}`, password: 'password-1', notify_props: { mention_keys: `${u.username},@${u.username},deploy` } });
    assert.equal(changed.json().email, `x-${u.email}`);
    const renamed = await put(u, u.id, { ...(changed.json() as Record<string, unknown>), username: `${u.username}2` });
    assert.equal(renamed.statusCode, 200, renamed.body);
    assert.equal(renamed.json().notify_props.mention_keys, ',deploy');
  });
});

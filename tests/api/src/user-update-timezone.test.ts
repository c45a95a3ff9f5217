import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { givenAdminWorld } from './support/admin-world';
import { createUserSession, type AdminSession } from './support/fixtures';
import { assertJson, raw } from './support/http';
import type { Target } from './support/target';

/** `timezone` and `remote_id` on `PUT /users/{id}` and `PUT /users/{id}/patch`, as the reference's User / UserPatch decode them. */
describe('user timezone and remote_id on update and patch', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
  });
  after(async () => {
    await target?.stop();
  });

  it('when a whole-user update has no timezone, then the user has none ("timezone": null) until one is set, as the reference stores a nil map', async () => {
    const me = await createUserSession(target.url, admin.client, 'tz');
    const put = (body: Record<string, unknown>) => raw(target.url, 'PUT', `/api/v4/users/${me.user.id}`, { token: me.token, body: { id: me.user.id, username: me.user.username, email: me.user.email, ...body } });
    const cleared = await put({ nickname: 'n1' });
    assertJson(cleared, 200);
    assert.equal(cleared.json.timezone, null);
    assert.equal((await me.client.getMe()).timezone, null, 'stored so, not only answered');
    assert.equal((await put({ nickname: 'n2', timezone: null })).json.timezone, null);
    assert.deepEqual((await put({ timezone: {} })).json.timezone, {});
    const zone = { useAutomaticTimezone: 'false', manualTimezone: 'Europe/Paris', automaticTimezone: '' };
    assert.deepEqual((await put({ timezone: zone })).json.timezone, zone);
    const viaClient = await me.client.updateUser({ ...(await me.client.getMe()), nickname: 'n3' });
    assert.deepEqual(viaClient.timezone, zone, 'Client4.updateUser sends the user it read, so the timezone stays');
  });

  it('when a patch names timezone null, then the timezone is unchanged; a map replaces it; remote_id is accepted and not kept (no shared channels here)', async () => {
    const me = await createUserSession(target.url, admin.client, 'tp');
    const patch = (body: Record<string, unknown>) => raw(target.url, 'PUT', `/api/v4/users/${me.user.id}/patch`, { token: me.token, body });
    const zone = { useAutomaticTimezone: 'true', automaticTimezone: 'Asia/Tokyo', manualTimezone: '' };
    assert.deepEqual((await patch({ timezone: zone })).json.timezone, zone);
    const unchanged = await patch({ timezone: null, nickname: 'x' });
    assertJson(unchanged, 200);
    assert.deepEqual(unchanged.json.timezone, zone);
    const remote = await patch({ remote_id: 'r'.repeat(26) });
    assertJson(remote, 200);
    assert.equal('remote_id' in remote.json, false);
    assert.equal('remote_id' in (await raw(target.url, 'GET', `/api/v4/users/${me.user.id}`, { token: admin.token })).json, false);
    assert.equal((await patch({ remote_id: 5 })).status, 400, 'the type is still checked');
  });
});

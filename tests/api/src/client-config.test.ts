import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newClient } from './support/client';
import { givenAdminWorld } from './support/admin-world';
import { patchConfig, type AdminSession } from './support/fixtures';
import { assertAppError, assertJson, raw } from './support/http';
import { outsider, type Actor } from './support/posts-fixtures';
import type { Target } from './support/target';

describe('client config, client licence and user by e-mail', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;
  let alice: Actor;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
    alice = await outsider(target.url, admin, 'cc');
  });
  after(async () => {
    await target?.stop();
  });

  it('when anyone reads GET /config/client?format=old, then a flat map of strings, limited without a session', async () => {
    const anonymous = await raw(target.url, 'GET', '/api/v4/config/client?format=old');
    assertJson(anonymous, 200);
    for (const [key, value] of Object.entries(anonymous.json as Record<string, unknown>)) assert.equal(typeof value, 'string', `${key} is a string`);
    assert.match(anonymous.json.Version, /^\d+\.\d+\.\d+$/);
    assert.equal(anonymous.json.NoAccounts, 'false');
    assert.equal(anonymous.json.EnableSignInWithUsername, 'true');
    assert.equal(anonymous.json.EnableIncomingWebhooks, undefined, 'the full set needs a session');
    const signedIn = await raw(target.url, 'GET', '/api/v4/config/client?format=old', { token: alice.token });
    assertJson(signedIn, 200);
    assert.equal(signedIn.json.Version, anonymous.json.Version);
    assert.equal(signedIn.json.EnableIncomingWebhooks, 'true');
    assert.equal(signedIn.json.ExperimentalEnablePostMetadata, 'true');
    assert.match(signedIn.json.MaxPostSize, /^\d+$/);
    assert.ok(['disabled', 'default_on', 'default_off', 'always_on'].includes(signedIn.json.CollapsedThreads));
  });

  it('when the official client reads the old-format config and licence, then they parse', async () => {
    const client = newClient(target.url, alice.token);
    const config = await client.getClientConfig();
    assert.equal(typeof config.SiteName, 'string');
    assert.deepEqual(await client.getClientLicenseOld(), { IsLicensed: 'false' });
  });

  it('when the config changes, then the client config follows it', async () => {
    await patchConfig(admin.client, { ServiceSettings: { EnableBotAccountCreation: true } });
    const on = await raw(target.url, 'GET', '/api/v4/config/client?format=old');
    assert.equal(on.json.EnableBotAccountCreation, 'true');
    await patchConfig(admin.client, { ServiceSettings: { EnableBotAccountCreation: false } });
    const off = await raw(target.url, 'GET', '/api/v4/config/client?format=old');
    assert.equal(off.json.EnableBotAccountCreation, 'false');
  });

  it('when format is missing or not old, then 501 and 400 as the reference', async () => {
    assertAppError(await raw(target.url, 'GET', '/api/v4/config/client'), 501, 'api.config.client.old_format.app_error');
    assertAppError(await raw(target.url, 'GET', '/api/v4/config/client?format=new', { token: alice.token }), 400, 'api.context.invalid_body_param.app_error');
    assertAppError(await raw(target.url, 'GET', '/api/v4/license/client'), 501, 'api.license.client.old_format.app_error');
    assertAppError(await raw(target.url, 'GET', '/api/v4/license/client?format=%7B%24ne%7D'), 400, 'api.context.invalid_body_param.app_error');
  });

  it('when GET /license/client?format=old is read without a session or with a bad token, then unlicensed', async () => {
    const anonymous = await raw(target.url, 'GET', '/api/v4/license/client?format=old');
    assertJson(anonymous, 200);
    assert.deepEqual(anonymous.json, { IsLicensed: 'false' });
    const badToken = await raw(target.url, 'GET', '/api/v4/license/client?format=old', { token: 'x'.repeat(26) });
    assert.equal(badToken.status, 200);
  });

  it('when a user is looked up by e-mail, then the user, case-insensitively', async () => {
    const me = await alice.client.getMe();
    const response = await raw(target.url, 'GET', `/api/v4/users/email/${encodeURIComponent(me.email.toUpperCase())}`, { token: admin.token });
    assertJson(response, 200);
    assert.equal(response.json.id, alice.id);
    assert.equal(response.json.password, undefined);
    const viaClient = await newClient(target.url, alice.token).getUserByEmail(me.email);
    assert.equal(viaClient.id, alice.id);
  });

  it('when the e-mail is unknown or not an address, then 404 and 400', async () => {
    assertAppError(await raw(target.url, 'GET', '/api/v4/users/email/nobody-here%40example.com', { token: alice.token }), 404, 'app.user.missing_account.const');
    assertAppError(await raw(target.url, 'GET', '/api/v4/users/email/not-an-address', { token: alice.token }), 400, 'api.context.invalid_url_param.app_error');
    assertAppError(await raw(target.url, 'GET', `/api/v4/users/email/${'a'.repeat(200)}%40example.com`, { token: alice.token }), 400, 'api.context.invalid_url_param.app_error');
    assertAppError(await raw(target.url, 'GET', '/api/v4/users/email/x%40example.com'), 401, 'api.context.session_expired.app_error');
  });

  it('when e-mail addresses are hidden, then only system admins may look one up, and existence does not leak', async () => {
    const me = await alice.client.getMe();
    const adminEmail = (await admin.client.getMe()).email;
    await patchConfig(admin.client, { PrivacySettings: { ShowEmailAddress: false } });
    try {
      assertAppError(await raw(target.url, 'GET', `/api/v4/users/email/${encodeURIComponent(adminEmail)}`, { token: alice.token }), 403, 'api.user.get_user_by_email.permissions.app_error');
      assertAppError(await raw(target.url, 'GET', '/api/v4/users/email/nobody-here%40example.com', { token: alice.token }), 403, 'api.user.get_user_by_email.permissions.app_error');
      const byAdmin = await raw(target.url, 'GET', `/api/v4/users/email/${encodeURIComponent(me.email)}`, { token: admin.token });
      assertJson(byAdmin, 200);
      assert.equal(byAdmin.json.email, me.email);
    } finally {
      await patchConfig(admin.client, { PrivacySettings: { ShowEmailAddress: true } });
    }
  });
});

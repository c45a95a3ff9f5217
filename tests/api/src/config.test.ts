import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectClientError, newClient } from './support/client';
import { createUserSession, PASSWORD, patchConfig, uniqueName, type AdminSession } from './support/fixtures';
import { givenAdminWorld } from './support/admin-world';
import { assertAppError, assertJson, raw } from './support/http';
import type { Target } from './support/target';

/** Switchyard's extension key, unknown to the client's AdminConfig type. */
const secretOf = (config: { ServiceSettings: object }): unknown => (config.ServiceSettings as Record<string, unknown>).IntegrationSigningSecret;

const MASK = '********************************';

describe('config and system', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
  });
  after(() => target?.stop());

  describe('GET /config', () => {
    it('when an admin reads the config, then PascalCase sections, no-cache headers and a masked IntegrationSigningSecret', async () => {
      const response = await raw(target.url, 'GET', '/api/v4/config', { token: admin.token });
      assertJson(response, 200);
      const config = response.json;
      for (const section of ['ServiceSettings', 'TeamSettings', 'RateLimitSettings']) assert.equal(typeof config[section], 'object', section);
      assert.equal(typeof config.ServiceSettings.EnableBotAccountCreation, 'boolean');
      assert.equal(typeof config.ServiceSettings.MaximumPayloadSizeBytes, 'number');
      assert.equal(config.ServiceSettings.IntegrationSigningSecret, MASK, 'the secret exists (generated at first start) and is masked');
      assert.equal(response.headers.get('cache-control'), 'no-cache, no-store, must-revalidate');
      const viaClient = await admin.client.getConfig();
      assert.equal(secretOf(viaClient), MASK);
    });

    it('when the server is fresh, then the reference defaults hold', async (t) => {
      if (!target.isolated) return t.skip('shared target: defaults may have been changed');
      const config = await admin.client.getConfig();
      assert.equal(config.ServiceSettings.EnableBotAccountCreation, false);
      assert.equal(config.ServiceSettings.EnableUserAccessTokens, false);
      assert.equal(config.ServiceSettings.DisableBotsWhenOwnerIsDeactivated, true);
      assert.equal(config.ServiceSettings.MaximumPayloadSizeBytes, 300000);
      assert.equal(config.ServiceSettings.EnableIncomingWebhooks, true);
      assert.equal(config.ServiceSettings.EnablePostUsernameOverride, false);
      assert.equal(config.TeamSettings.EnableOpenServer, false);
      assert.equal(config.RateLimitSettings.Enable, false);
      assert.equal(config.RateLimitSettings.PerSec, 10);
      assert.equal(config.RateLimitSettings.MaxBurst, 100);
    });

    it('when a non-admin or nobody reads the config, then 403 api.context.permissions.app_error or 401', async () => {
      const user = await createUserSession(target.url, admin.client, 'cfg');
      await expectClientError(user.client.getConfig(), 403, 'api.context.permissions.app_error');
      assertAppError(await raw(target.url, 'GET', '/api/v4/config'), 401, 'api.context.session_expired.app_error');
    });
  });

  describe('PUT /config/patch', () => {
    it('when an admin patches one key, then the answer and later reads show it, other keys unchanged', async () => {
      const before = await admin.client.getConfig();
      const answer = await admin.client.patchConfig({ ServiceSettings: { EnablePostUsernameOverride: true } });
      try {
        assert.equal(answer.ServiceSettings.EnablePostUsernameOverride, true);
        assert.equal(secretOf(answer), MASK);
        const afterwards = await admin.client.getConfig();
        assert.equal(afterwards.ServiceSettings.EnablePostUsernameOverride, true);
        assert.equal(afterwards.ServiceSettings.MaximumPayloadSizeBytes, before.ServiceSettings.MaximumPayloadSizeBytes);
        assert.equal(afterwards.TeamSettings.EnableOpenServer, before.TeamSettings.EnableOpenServer);
      } finally {
        await patchConfig(admin.client, { ServiceSettings: { EnablePostUsernameOverride: before.ServiceSettings.EnablePostUsernameOverride } });
      }
    });

    it('when EnableOpenServer is patched on, then anonymous signup works at once without a restart', async () => {
      await patchConfig(admin.client, { TeamSettings: { EnableOpenServer: true } });
      try {
        const username = uniqueName('open');
        const response = await raw(target.url, 'POST', '/api/v4/users', { body: { username, email: `${username}@example.com`, password: PASSWORD } });
        assertJson(response, 201);
        assert.deepEqual(response.json.roles, 'system_user');
      } finally {
        await patchConfig(admin.client, { TeamSettings: { EnableOpenServer: false } });
      }
      const username = uniqueName('closed');
      const refused = await raw(target.url, 'POST', '/api/v4/users', { body: { username, email: `${username}@example.com`, password: PASSWORD } });
      assertAppError(refused, 403, 'api.user.create_user.no_open_server');
    });

    it('when an admin sets IntegrationSigningSecret, then it is accepted and shown masked', async () => {
      const secret = `whsec_${Buffer.from(uniqueName('s').repeat(4)).toString('base64')}`;
      const answer = await admin.client.patchConfig({ ServiceSettings: { IntegrationSigningSecret: secret } } as never);
      assert.equal(secretOf(answer), MASK);
      assert.equal(secretOf(await admin.client.getConfig()), MASK);
    });

    it('when a value is out of range, then 400 model.config.is_valid.* and nothing changes', async () => {
      const before = await admin.client.getConfig();
      const response = await raw(target.url, 'PUT', '/api/v4/config/patch', {
        token: admin.token,
        body: { ServiceSettings: { MaximumPayloadSizeBytes: -5 } },
      });
      assertAppError(response, 400, /^model\.config\.is_valid\./);
      assert.equal((await admin.client.getConfig()).ServiceSettings.MaximumPayloadSizeBytes, before.ServiceSettings.MaximumPayloadSizeBytes);
    });

    it('when a non-admin patches the config, then 403 api.context.permissions.app_error and nothing changes', async () => {
      const user = await createUserSession(target.url, admin.client, 'cfgw');
      await expectClientError(user.client.patchConfig({ ServiceSettings: { EnableBotAccountCreation: true } }), 403, 'api.context.permissions.app_error');
      const response = await raw(target.url, 'PUT', '/api/v4/config', { token: user.token, body: await admin.client.getConfig() });
      assertAppError(response, 403, 'api.context.permissions.app_error');
    });
  });

  describe('EnableDeveloper', () => {
    it('when EnableDeveloper is off, then detailed_error is empty; switched on, then it carries the detail at once', async () => {
      const user = await createUserSession(target.url, admin.client, 'dev');
      const before = (await admin.client.getConfig()).ServiceSettings.EnableDeveloper;
      await patchConfig(admin.client, { ServiceSettings: { EnableDeveloper: false } });
      try {
        const quiet = await raw(target.url, 'GET', '/api/v4/config', { token: user.token });
        assertAppError(quiet, 403, 'api.context.permissions.app_error');
        assert.equal(quiet.json.detailed_error, '');
        await patchConfig(admin.client, { ServiceSettings: { EnableDeveloper: true } });
        const loud = await raw(target.url, 'GET', '/api/v4/config', { token: user.token });
        assertAppError(loud, 403, 'api.context.permissions.app_error');
        assert.match(loud.json.detailed_error, new RegExp(`userId=${user.user.id}, permission=\\w+`));
      } finally {
        await patchConfig(admin.client, { ServiceSettings: { EnableDeveloper: before } });
      }
    });
  });

  describe('PUT /config', () => {
    it('when an admin puts back the config it read with one change, then 200 with the change and the secret still masked', async () => {
      const current = await admin.client.getConfig();
      const original = current.TeamSettings.MaxUsersPerTeam;
      const changed = { ...current, TeamSettings: { ...current.TeamSettings, MaxUsersPerTeam: original + 7 } };
      try {
        const answer = await admin.client.updateConfig(changed);
        assert.equal(answer.TeamSettings.MaxUsersPerTeam, original + 7);
        assert.equal(secretOf(answer), MASK);
        const read = await admin.client.getConfig();
        assert.equal(read.TeamSettings.MaxUsersPerTeam, original + 7);
        assert.equal(read.ServiceSettings.EnableBotAccountCreation, current.ServiceSettings.EnableBotAccountCreation);
      } finally {
        await patchConfig(admin.client, { TeamSettings: { MaxUsersPerTeam: original } });
      }
    });
  });

  describe('ping', () => {
    it('when GET /system/ping is called without a session, then 200 {"status":"OK"}', async () => {
      const response = await raw(target.url, 'GET', '/api/v4/system/ping');
      assertJson(response, 200);
      assert.equal(response.json.status, 'OK');
    });

    it('when the official client pings, then status OK', async () => {
      const answer = await newClient(target.url).ping(false);
      assert.equal(answer.status, 'OK');
    });
  });
});

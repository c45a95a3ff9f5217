import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SECRET_MASK } from '@switchyard/system-config';
import { assertError } from '../../test-support/assert-error';
import { adminHarness, type Caller, type HttpHarness } from '../../test-support/http-harness';

describe('config', () => {
  let h: HttpHarness;
  let admin: Caller;
  before(async () => {
    ({ h, admin } = await adminHarness());
  });
  after(async () => h.stop());

  const internalConfig = async () => (await h.request('GET', '/internal/v1/config', { service: 'posts' })).json();

  it('when the service starts, then IntegrationSigningSecret is generated (whsec_ + base64 of 32 bytes) and published', async () => {
    const secret = (await internalConfig()).ServiceSettings.IntegrationSigningSecret as string;
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(secret.slice(6), 'base64').length, 32);
    const published = h.bus.published.filter((p) => p.topic === 'config.events');
    assert.ok(published.length >= 1);
    assert.equal(published[0]?.key, 'config');
    assert.equal(published[0]?.value.type, 'config.updated');
  });

  it('when an admin reads the config, then secrets are masked and caching is forbidden; others get 403', async () => {
    const res = await h.request('GET', '/api/v4/config', { as: admin });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['cache-control'], 'no-cache, no-store, must-revalidate');
    assert.equal(res.json().ServiceSettings.IntegrationSigningSecret, SECRET_MASK);
    assert.equal(res.json().ServiceSettings.MaximumPayloadSizeBytes, 300000);
    const u = await h.user();
    const denied = await h.request('GET', '/api/v4/config', { as: u });
    assertError(denied, 403, 'api.context.permissions.app_error');
    assertError(await h.request('PUT', '/api/v4/config/patch', { as: u, body: {} }), 403, 'api.context.permissions.app_error');
  });

  it('when the config is patched, then it applies at once, is published with the full document, and the mask keeps the secret', async () => {
    const before = (await internalConfig()).ServiceSettings.IntegrationSigningSecret;
    h.bus.clear();
    const res = await h.request('PUT', '/api/v4/config/patch', {
      as: admin,
      body: { ServiceSettings: { EnableBotAccountCreation: true, IntegrationSigningSecret: SECRET_MASK }, Unknown: { X: 1 } },
    });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().ServiceSettings.EnableBotAccountCreation, true);
    assert.equal(res.json().ServiceSettings.IntegrationSigningSecret, SECRET_MASK);
    assert.equal(res.json().Unknown, undefined);
    const event = h.bus.published.find((p) => p.topic === 'config.events');
    const published = event?.value.payload.config as { ServiceSettings: { EnableBotAccountCreation: boolean; IntegrationSigningSecret: string } };
    assert.equal(published.ServiceSettings.EnableBotAccountCreation, true);
    assert.equal(published.ServiceSettings.IntegrationSigningSecret, before);
    assert.equal(h.app.liveConfig.current().ServiceSettings.EnableBotAccountCreation, true);
    const bot = await h.request('POST', '/api/v4/bots', { as: admin, body: { username: 'nowallowed' } });
    assert.equal(bot.statusCode, 201);
  });

  it('when an admin sets a new signing secret, then it is used; an empty one keeps the current', async () => {
    await h.patchConfig({ ServiceSettings: { IntegrationSigningSecret: 'whsec_custom' } });
    assert.equal((await internalConfig()).ServiceSettings.IntegrationSigningSecret, 'whsec_custom');
    await h.patchConfig({ ServiceSettings: { IntegrationSigningSecret: '' } });
    assert.equal((await internalConfig()).ServiceSettings.IntegrationSigningSecret, 'whsec_custom');
  });

  it('when a value has the wrong type, then 400 naming the key and nothing changes', async () => {
    const res = await h.request('PUT', '/api/v4/config/patch', { as: admin, body: { ServiceSettings: { EnableBotAccountCreation: 'false' } } });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().id, 'api.context.invalid_body_param.app_error');
    assert.match(res.json().message, /ServiceSettings\.EnableBotAccountCreation/);
    assert.equal(h.app.liveConfig.current().ServiceSettings.EnableBotAccountCreation, true);
    const notObject = await h.request('PUT', '/api/v4/config/patch', { as: admin, body: [1, 2] });
    assertError(notObject, 400, 'api.context.invalid_body_param.app_error');
    const operator = await h.request('PUT', '/api/v4/config/patch', { as: admin, body: { ServiceSettings: { SiteURL: { $gt: '' } } } });
    assertError(operator, 400, 'api.context.invalid_body_param.app_error');
  });

  it('when a value is out of range, then 400 with the model.config.is_valid id and nothing is stored or published', async () => {
    h.bus.clear();
    const res = await h.request('PUT', '/api/v4/config/patch', { as: admin, body: { ServiceSettings: { MaximumPayloadSizeBytes: 0 } } });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().id, 'model.config.is_valid.max_payload_size.app_error');
    assert.equal(h.bus.published.filter((p) => p.topic === 'config.events').length, 0);
    assert.equal((await internalConfig()).ServiceSettings.MaximumPayloadSizeBytes, 300000);
  });

  it('when a full config is PUT, then missing keys take defaults; clearing a set SiteURL is 400', async () => {
    await h.patchConfig({ ServiceSettings: { SiteURL: 'https://chat.example.com' } });
    const full = (await h.request('GET', '/api/v4/config', { as: admin })).json();
    full.TeamSettings.EnableOpenServer = true;
    delete full.RateLimitSettings;
    const res = await h.request('PUT', '/api/v4/config', { as: admin, body: full });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().TeamSettings.EnableOpenServer, true);
    assert.equal(res.json().RateLimitSettings.PerSec, 10);
    full.ServiceSettings.SiteURL = '';
    const cleared = await h.request('PUT', '/api/v4/config', { as: admin, body: full });
    assert.equal(cleared.statusCode, 400);
    assert.equal(cleared.json().id, 'api.config.update_config.clear_siteurl.app_error');
  });

  it('when MaximumPayloadSizeBytes shrinks, then larger bodies get 413 at once', async () => {
    await h.patchConfig({ ServiceSettings: { MaximumPayloadSizeBytes: 200 } });
    try {
      const res = await h.request('POST', '/api/v4/users', { as: admin, body: { username: 'big', email: 'big@example.com', password: 'p'.repeat(300) } });
      assert.equal(res.statusCode, 413);
      assert.equal(res.json().id, 'api.context.request_body_too_large.app_error');
    } finally {
      await h.patchConfig({ ServiceSettings: { MaximumPayloadSizeBytes: 300000 } });
    }
  });
});

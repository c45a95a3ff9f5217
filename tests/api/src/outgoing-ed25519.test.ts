import assert from 'node:assert/strict';
import { createPublicKey, randomBytes, verify } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Command } from '@mattermost/types/integrations';
import { eventually } from './support/eventually';
import { patchConfig } from './support/fixtures';
import { givenIntegrationWorld, type IntegrationWorld } from './support/integration-world';
import { assertAppError, assertJson, raw } from './support/http';
import type { Received } from './support/outgoing-receiver';
import { postIn, teamMember } from './support/posts-fixtures';

interface HookJson {
  id: string;
  token: string;
  signing_secret: string;
  signing_algorithm: string;
  signing_public_key: string;
  event_types: string[];
}

// SPKI DER of an Ed25519 public key is this prefix followed by the 32 raw bytes (RFC 8410).
const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** An independent check (node:crypto, not Switchyard's signing code): which of the `v1a` signatures `whpk_` verifies. */
function verifiesWith(publicKey: string, request: Received): boolean {
  assert.match(publicKey, /^whpk_[A-Za-z0-9+/]{43}=$/);
  const key = createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, Buffer.from(publicKey.slice(5), 'base64')]), format: 'der', type: 'spki' });
  const signed = Buffer.from(`${String(request.headers['webhook-id'])}.${String(request.headers['webhook-timestamp'])}.${request.body}`);
  const signatures = String(request.headers['webhook-signature']).split(' ');
  return signatures.some((s) => s.startsWith('v1a,') && verify(null, signed, key, Buffer.from(s.slice(4), 'base64')));
}

describe('Ed25519 signatures (v1a)', { timeout: 300_000 }, () => {
  let world: IntegrationWorld;
  const secret = `whsec_${randomBytes(32).toString('base64')}`;

  before(async () => {
    world = await givenIntegrationWorld({ serviceSettings: (url) => ({ IntegrationSigningSecret: secret, SiteURL: url }), alsoRestore: ['IntegrationSigningAlgorithm'] });
  });
  after(() => world?.stop());

  const createHook = async (body: Record<string, unknown>): Promise<HookJson> => {
    const res = await raw(world.target.url, 'POST', '/api/v4/hooks/outgoing', { token: world.admin.token, body: { team_id: world.team.id, ...body } });
    assertJson(res, 201);
    return res.json as HookJson;
  };

  it('when a hook is created without an algorithm, then it is hmac-sha256 with no public key and posted events only', async () => {
    const hook = await createHook({ channel_id: world.channel.id, callback_urls: [`${world.receiver.url}/plain`] });
    assert.equal(hook.signing_algorithm, 'hmac-sha256');
    assert.equal(hook.signing_public_key, '');
    assert.deepEqual(hook.event_types, ['posted']);
  });

  it('when an ed25519 hook fires, then the v1a signature verifies with its public key and the answer never carries a private key', async () => {
    const hook = await createHook({ channel_id: world.channel.id, trigger_words: ['edsig'], callback_urls: [`${world.receiver.url}/ed`], content_type: 'application/json', signing_algorithm: 'ed25519' });
    assert.equal(hook.signing_algorithm, 'ed25519');
    assert.doesNotMatch(JSON.stringify(hook), /whsk_/);
    const post = await postIn(world.member, world.channel.id, 'edsig one');
    const request = await world.receiver.waitFor((r) => r.path === '/ed' && r.body.includes(post.id));
    assert.match(String(request.headers['webhook-signature']), /^v1a,[A-Za-z0-9+/]{86}==$/);
    assert.equal(verifiesWith(hook.signing_public_key, request), true);
    // A tampered body does not verify.
    assert.equal(verifiesWith(hook.signing_public_key, { ...request, body: request.body.replace('edsig one', 'edsig two') }), false);
    const fetched = await raw(world.target.url, 'GET', `/api/v4/hooks/outgoing/${hook.id}`, { token: world.admin.token });
    assert.equal((fetched.json as HookJson).signing_public_key, hook.signing_public_key);
  });

  it('when an ed25519 hook regenerates, then both key pairs sign during the overlap', async () => {
    const hook = await createHook({ channel_id: world.channel.id, trigger_words: ['edrot'], callback_urls: [`${world.receiver.url}/rot`], signing_algorithm: 'ed25519' });
    const res = await raw(world.target.url, 'POST', `/api/v4/hooks/outgoing/${hook.id}/regen_signing_secret`, { token: world.admin.token });
    assertJson(res, 200);
    const rotated = res.json as HookJson;
    assert.notEqual(rotated.signing_public_key, hook.signing_public_key);
    const post = await postIn(world.member, world.channel.id, 'edrot now');
    const request = await world.receiver.waitFor((r) => r.path === '/rot' && r.body.includes(post.id));
    assert.equal(String(request.headers['webhook-signature']).split(' ').length, 2);
    assert.equal(verifiesWith(rotated.signing_public_key, request), true);
    assert.equal(verifiesWith(hook.signing_public_key, request), true);
  });

  it('when a PUT leaves signing_algorithm out, then the hook keeps it; an unknown algorithm or event type is 400', async () => {
    const hook = await createHook({ channel_id: world.channel.id, trigger_words: ['edput'], callback_urls: [`${world.receiver.url}/put`], signing_algorithm: 'ed25519' });
    const put = await raw(world.target.url, 'PUT', `/api/v4/hooks/outgoing/${hook.id}`, { token: world.admin.token, body: { id: hook.id, token: hook.token, team_id: world.team.id, channel_id: world.channel.id, trigger_words: ['edput2'], callback_urls: [`${world.receiver.url}/put`] } });
    assertJson(put, 200);
    assert.equal((put.json as HookJson).signing_algorithm, 'ed25519');
    assert.equal((put.json as HookJson).signing_public_key, hook.signing_public_key);
    const bad = await raw(world.target.url, 'POST', '/api/v4/hooks/outgoing', { token: world.admin.token, body: { team_id: world.team.id, channel_id: world.channel.id, callback_urls: ['http://127.0.0.1/x'], signing_algorithm: 'rsa' } });
    assertAppError(bad, 400, 'model.outgoing_hook.is_valid.signing_algorithm.app_error');
    const badType = await raw(world.target.url, 'POST', '/api/v4/hooks/outgoing', { token: world.admin.token, body: { team_id: world.team.id, channel_id: world.channel.id, callback_urls: ['http://127.0.0.1/x'], event_types: [] } });
    assertAppError(badType, 400, 'model.outgoing_hook.is_valid.event_types.app_error');
  });

  it('when IntegrationSigningAlgorithm is ed25519, then slash commands carry v1a verifiable with the published key; a bad value is refused', async () => {
    const none = await raw(world.target.url, 'GET', '/api/v4/system/integration_signing_key', {});
    assertAppError(none, 401, 'api.context.session_expired.app_error');
    const before = await raw(world.target.url, 'GET', '/api/v4/system/integration_signing_key', { token: world.member.token });
    assertJson(before, 200);
    assert.deepEqual(before.json, { algorithm: 'hmac-sha256', public_keys: [] });
    await patchConfig(world.admin.client, { ServiceSettings: { IntegrationSigningAlgorithm: 'ed25519' } });
    const published = await eventually('the ed25519 key is published', async () => {
      const res = await raw(world.target.url, 'GET', '/api/v4/system/integration_signing_key', { token: world.member.token });
      const json = res.json as { algorithm: string; public_keys: string[] };
      return json.algorithm === 'ed25519' ? json : undefined;
    });
    assert.equal(published.public_keys.length, 1);
    const command = await world.admin.client.addCommand({ team_id: world.team.id, trigger: `ed${randomBytes(4).toString('hex')}`, url: `${world.receiver.url}/cmd`, method: 'P' } as Command);
    world.receiver.respond((r) => (r.path === '/cmd' ? { body: JSON.stringify({ text: 'signed' }) } : {}));
    await world.member.client.executeCommand(`/${command.trigger} go`, { channel_id: world.channel.id, team_id: world.team.id } as never);
    const request = await world.receiver.waitFor((r) => r.path === '/cmd');
    assert.equal(verifiesWith(published.public_keys[0] ?? '', request), true);
    const bad = await raw(world.target.url, 'PUT', '/api/v4/config/patch', { token: world.admin.token, body: { ServiceSettings: { IntegrationSigningAlgorithm: 'md5' } } });
    assertAppError(bad, 400, 'model.config.is_valid.integration_signing_algorithm.app_error');
    await patchConfig(world.admin.client, { ServiceSettings: { IntegrationSigningAlgorithm: 'hmac-sha256' } });
  });

  it('when a team member without manage_system asks for integration_disabled events, then it is 403', async () => {
    const user = await teamMember(world.target.url, world.admin, world.team);
    await patchConfig(world.admin.client, { ServiceSettings: { EnableOnlyAdminIntegrations: false } });
    try {
      const res = await raw(world.target.url, 'POST', '/api/v4/hooks/outgoing', { token: user.token, body: { team_id: world.team.id, channel_id: world.channel.id, callback_urls: ['http://127.0.0.1/x'], event_types: ['posted', 'integration_disabled'] } });
      assert.equal(res.status, 403);
    } finally {
      await patchConfig(world.admin.client, { ServiceSettings: { EnableOnlyAdminIntegrations: true } });
    }
  });
});

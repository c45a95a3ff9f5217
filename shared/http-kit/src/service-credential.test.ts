import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSilentLogger } from '@switchyard/logger';
import { createHttpApp, InProcessTransport, sendJson, signIdentity } from './index';
import { SERVICE_CREDENTIAL_HEADER, SERVICE_CREDENTIAL_MAX_AGE_MS, serviceCredential, serviceOnly, verifyServiceCredential } from './service-credential';

const SECRET = 'a-secret-of-reasonable-length-000';

test('when a credential is verified, then it names its service only for the same secret, method, target and a fresh time', () => {
  const now = 1_700_000_000_000;
  const headers = serviceCredential('posts', SECRET).headers('GET', '/internal/v1/config', now);
  const ok = { method: 'GET', target: '/internal/v1/config', headers };
  assert.equal(verifyServiceCredential(ok, SECRET, now), 'posts');
  assert.equal(verifyServiceCredential(ok, SECRET, now + SERVICE_CREDENTIAL_MAX_AGE_MS), 'posts');
  assert.equal(verifyServiceCredential({ ...ok, method: 'get' }, SECRET, now), 'posts', 'method case does not matter');
  assert.equal(verifyServiceCredential(ok, 'another-secret-of-the-same-length', now), undefined);
  assert.equal(verifyServiceCredential({ ...ok, method: 'PUT' }, SECRET, now), undefined);
  assert.equal(verifyServiceCredential({ ...ok, target: '/internal/v1/config?x=1' }, SECRET, now), undefined);
  assert.equal(verifyServiceCredential({ ...ok, target: '/internal/v1/posts/x' }, SECRET, now), undefined);
  assert.equal(verifyServiceCredential(ok, SECRET, now + SERVICE_CREDENTIAL_MAX_AGE_MS + 1), undefined, 'stale');
  assert.equal(verifyServiceCredential(ok, SECRET, now - SERVICE_CREDENTIAL_MAX_AGE_MS - 1), undefined, 'from the future');
  const value = headers[SERVICE_CREDENTIAL_HEADER] ?? '';
  const renamed = value.replace('v1.posts.', 'v1.gateway.');
  assert.equal(verifyServiceCredential({ ...ok, headers: { [SERVICE_CREDENTIAL_HEADER]: renamed } }, SECRET, now), undefined, 'the name is signed');
  for (const bad of ['', 'v1', 'v2.posts.1.x', `${value}.x`, 'v1.posts.notanumber.x']) {
    assert.equal(verifyServiceCredential({ ...ok, headers: { [SERVICE_CREDENTIAL_HEADER]: bad } }, SECRET, now), undefined, bad);
  }
  assert.equal(verifyServiceCredential({ ...ok, headers: { [SERVICE_CREDENTIAL_HEADER]: [value, value] } }, SECRET, now), undefined);
  assert.throws(() => serviceCredential('Bad.Name', SECRET));
});

test('when serviceOnly guards a route, then only the named services pass; user identities and other services do not', async () => {
  const http = createHttpApp({ service: 't', logger: createSilentLogger(), ready: async () => ({ ok: true, checks: {} }) });
  http.app.get('/internal/v1/thing', serviceOnly(SECRET, ['gateway']), (_req, res) => sendJson(res, 200, { ok: true }));
  const transport = new InProcessTransport({ t: http.finalize() });
  const call = async (headers: Record<string, string>) => (await transport.send('t', { method: 'GET', path: '/internal/v1/thing', headers })).status;
  assert.equal(await call(serviceCredential('gateway', SECRET).headers('GET', '/internal/v1/thing')), 200);
  assert.equal(await call(serviceCredential('posts', SECRET).headers('GET', '/internal/v1/thing')), 403);
  assert.equal(await call({}), 401);
  const user = signIdentity({ userId: 'u'.repeat(26), sessionId: 's', roles: 'system_admin system_user', isBot: false, sessionType: 'session' }, SECRET, { method: 'GET', target: '/internal/v1/thing' });
  assert.equal(await call(user), 401, 'a valid user identity is not a service identity');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSilentLogger } from '@switchyard/logger';
import { createHttpApp, IDENTITY_MAX_AGE_MS, identityMiddleware, InProcessTransport, requireIdentity, sendJson, signIdentity, verifyIdentity } from './index';

const SECRET = 'identity-binding-secret-0123456789';
const USER = { userId: 'u'.repeat(26), sessionId: 's', roles: 'system_user', isBot: false, sessionType: 'session' } as const;

test('when a signed identity is verified, then it holds for its own method and exact target only, for IDENTITY_MAX_AGE_MS', () => {
  const now = 1_700_000_000_000;
  const signedFor = { method: 'GET', target: '/api/v4/users/me?a=1' };
  const headers = signIdentity(USER, SECRET, signedFor, now);
  const verify = (method: string, target: string, at = now) => verifyIdentity({ method, target, headers }, SECRET, at)?.userId;
  assert.equal(verify('GET', '/api/v4/users/me?a=1'), USER.userId);
  assert.equal(verify('get', '/api/v4/users/me?a=1'), USER.userId, 'methods compare upper-cased');
  // Replayed anywhere else: another method, path or query, or a trailing difference.
  for (const [method, target] of [
    ['DELETE', '/api/v4/users/me?a=1'],
    ['POST', '/api/v4/users/me?a=1'],
    ['GET', '/api/v4/users/me'],
    ['GET', '/api/v4/users/me?a=2'],
    ['GET', '/api/v4/users/me?a=1&a=1'],
    ['GET', '/api/v4/users/other?a=1'],
    ['GET', '/api/v4/users/me/?a=1'],
  ] as const) {
    assert.equal(verify(method, target), undefined, `${method} ${target}`);
  }
  // Short life, either way (clock skew): accepted up to the limit, refused past it.
  assert.equal(verify('GET', '/api/v4/users/me?a=1', now + IDENTITY_MAX_AGE_MS), USER.userId);
  assert.equal(verify('GET', '/api/v4/users/me?a=1', now + IDENTITY_MAX_AGE_MS + 1), undefined);
  assert.equal(verify('GET', '/api/v4/users/me?a=1', now - IDENTITY_MAX_AGE_MS - 1), undefined);
  assert.equal(IDENTITY_MAX_AGE_MS, 15_000);
});

test('when a captured identity is replayed to another route or method of a service, or after it expired, then the service answers 401', async () => {
  const http = createHttpApp({ service: 'api', logger: createSilentLogger(), ready: async () => ({ ok: true, checks: {} }) });
  http.app.use(identityMiddleware(() => SECRET));
  const who = (req: Parameters<typeof requireIdentity>[0], res: Parameters<typeof sendJson>[0]) => sendJson(res, 200, { id: requireIdentity(req).userId });
  http.app.get('/api/v4/posts/:id', who);
  http.app.delete('/api/v4/posts/:id', who);
  http.app.get('/api/v4/users/me', who);
  const transport = new InProcessTransport({ api: http.finalize() });
  const send = async (method: string, path: string, headers: Record<string, string>) => {
    const res = await transport.send('api', { method, path, headers });
    return { status: res.status, id: (JSON.parse(res.body.toString('utf8')) as { id: string }).id };
  };
  const captured = signIdentity(USER, SECRET, { method: 'GET', target: '/api/v4/posts/p1' });
  assert.deepEqual(await send('GET', '/api/v4/posts/p1', captured), { status: 200, id: USER.userId });
  assert.deepEqual(await send('DELETE', '/api/v4/posts/p1', captured), { status: 401, id: 'api.context.session_expired.app_error' });
  assert.deepEqual(await send('GET', '/api/v4/posts/p2', captured), { status: 401, id: 'api.context.session_expired.app_error' });
  assert.deepEqual(await send('GET', '/api/v4/users/me', captured), { status: 401, id: 'api.context.session_expired.app_error' });
  const expired = signIdentity(USER, SECRET, { method: 'GET', target: '/api/v4/posts/p1' }, Date.now() - IDENTITY_MAX_AGE_MS - 1_000);
  assert.deepEqual(await send('GET', '/api/v4/posts/p1', expired), { status: 401, id: 'api.context.session_expired.app_error' });
});

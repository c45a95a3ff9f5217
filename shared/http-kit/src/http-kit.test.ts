import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inject } from 'light-my-request';
import { badRequest } from '@switchyard/errors';
import { createSilentLogger } from '@switchyard/logger';
import { createHttpApp, jsonBody, rawBody, sendJson, signIdentity, verifyIdentity } from './index';

function app() {
  const http = createHttpApp({ service: 't', logger: createSilentLogger(), ready: async () => ({ ok: true, checks: {} }) });
  http.app.post('/echo', rawBody(() => 100), jsonBody, (req, res) => sendJson(res, 200, { body: req.body ?? null }));
  http.app.get('/boom', () => {
    throw badRequest('x.y', 'nope');
  });
  http.app.get('/crash', async () => {
    throw new Error('internal secret');
  });
  http.app.get('/store-down', async () => {
    throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:27017'), { name: 'MongoServerSelectionError' });
  });
  return http.finalize();
}

test('when a route answers, then Content-Type is exactly application/json and X-Request-ID is set', async () => {
  const res = await inject(app(), { method: 'POST', url: '/echo', payload: '{"a":1}' });
  assert.equal(res.headers['content-type'], 'application/json');
  assert.match(String(res.headers['x-request-id']), /^[a-z0-9]{26}$/);
  assert.deepEqual(res.json(), { body: { a: 1 } });
});

test('when the body is too large, then 413 request_body_too_large', async () => {
  const res = await inject(app(), { method: 'POST', url: '/echo', payload: 'x'.repeat(500) });
  assert.equal(res.statusCode, 413);
  assert.equal(res.json().id, 'api.context.request_body_too_large.app_error');
});

test('when a handler throws an AppError or crashes, then the error JSON carries id, request_id and status_code', async () => {
  const bad = await inject(app(), { method: 'GET', url: '/boom' });
  assert.equal(bad.statusCode, 400);
  assert.equal(bad.json().id, 'x.y');
  assert.equal(bad.json().request_id, bad.headers['x-request-id']);
  const crash = await inject(app(), { method: 'GET', url: '/crash' });
  assert.equal(crash.statusCode, 500);
  assert.doesNotMatch(crash.body, /internal secret/);
});

test('when a route is unknown, then 404 api.context.404.app_error', async () => {
  const res = await inject(app(), { method: 'GET', url: '/nope' });
  assert.equal(res.statusCode, 404);
  assert.equal(res.json().id, 'api.context.404.app_error');
});

test('when identity headers are forged or stale, then they are not trusted', () => {
  const identity = { userId: 'u', sessionId: 's', roles: 'system_user', isBot: false, sessionType: 'session' as const };
  const me = { method: 'GET', target: '/api/v4/users/me' };
  const headers = signIdentity(identity, 'secret-secret-secret', me);
  assert.equal(verifyIdentity({ ...me, headers }, 'secret-secret-secret')?.userId, 'u');
  assert.equal(verifyIdentity({ ...me, headers }, 'another-secret-xxxxx'), undefined);
  const tampered = { ...headers, 'x-switchyard-identity': Buffer.from(JSON.stringify({ ...identity, roles: 'system_admin', issuedAt: Date.now() })).toString('base64url') };
  assert.equal(verifyIdentity({ ...me, headers: tampered }, 'secret-secret-secret'), undefined);
  assert.equal(verifyIdentity({ ...me, headers: signIdentity(identity, 'secret-secret-secret', me, Date.now() - 3_600_000) }, 'secret-secret-secret'), undefined);
});

test('when the store is unreachable, then 503 api.context.server_busy.app_error (a Mattermost error, not a 500), without the driver\'s message', async () => {
  const res = await inject(app(), { method: 'GET', url: '/store-down' });
  assert.equal(res.statusCode, 503);
  assert.equal(res.json().id, 'api.context.server_busy.app_error');
  assert.equal(res.json().status_code, 503);
  assert.equal(res.json().request_id, res.headers['x-request-id']);
  assert.doesNotMatch(res.body, /ECONNREFUSED|27017/);
});

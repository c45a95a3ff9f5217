import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SystemConfig } from '@switchyard/system-config';
import { session } from './test-support/fake-services';
import { assertError } from './test-support/assert-error';
import { startHarness } from './test-support/harness';

const limits = (patch: Partial<SystemConfig['RateLimitSettings']>) => (c: SystemConfig) => {
  c.RateLimitSettings = { ...c.RateLimitSettings, Enable: true, ...patch };
};

test('when rate limiting is off (the default), then no X-RateLimit headers are sent', async () => {
  const h = await startHarness();
  try {
    const res = await h.request({ method: 'GET', url: '/api/v4/users/me' });
    assert.equal(res.headers['x-ratelimit-limit'], undefined);
  } finally {
    await h.stop();
  }
});

test('when rate limiting is on, then every response carries Limit = MaxBurst+1, Remaining and a relative Reset', async () => {
  const h = await startHarness({ config: limits({ PerSec: 1, MaxBurst: 4 }) });
  try {
    const first = await h.request({ method: 'GET', url: '/api/v4/users/me' });
    assert.equal(first.headers['x-ratelimit-limit'], '5');
    assert.equal(first.headers['x-ratelimit-remaining'], '4');
    assert.equal(first.headers['x-ratelimit-reset'], '1');
    const second = await h.request({ method: 'GET', url: '/api/v4/unknown' });
    assertError(second, 404, 'api.context.404.app_error');
    assert.equal(second.headers['x-ratelimit-remaining'], '3');
    assert.equal(second.headers['x-ratelimit-reset'], '2');
  } finally {
    await h.stop();
  }
});

// The reference answers 429 as plain text 'limit exceeded' (Go's http.Error, mattermost-wire.md §11);
// Switchyard answers a JSON AppError (rate-limit.middleware.ts), and these tests pin that answer.
test('when the bucket is empty, then 429 JSON api.context.rate_limit.app_error with Retry-After', async () => {
  const h = await startHarness({ config: limits({ PerSec: 1, MaxBurst: 2 }) });
  try {
    for (let i = 0; i < 3; i += 1) assert.equal((await h.request({ method: 'GET', url: '/api/v4/users/me' })).statusCode, 200);
    const calls = h.transport.calls.length;
    const res = await h.request({ method: 'GET', url: '/api/v4/users/me' });
    assert.equal(res.statusCode, 429);
    assert.equal(res.headers['content-type'], 'application/json');
    assert.equal(res.json().id, 'api.context.rate_limit.app_error');
    assert.equal(res.json().status_code, 429);
    assert.equal(res.headers['retry-after'], '1');
    assert.equal(res.headers['x-ratelimit-limit'], '3');
    assert.equal(res.headers['x-ratelimit-remaining'], '0');
    assert.equal(res.headers['x-ratelimit-reset'], '3');
    assert.equal(h.transport.calls.length, calls, 'a limited request is not forwarded');
  } finally {
    await h.stop();
  }
});

test('when the key varies by remote address, then another client has its own bucket', async () => {
  const h = await startHarness({ config: limits({ PerSec: 1, MaxBurst: 0 }) });
  try {
    assert.equal((await h.request({ method: 'GET', url: '/api/v4/users/me', remoteAddress: '10.0.0.1' })).statusCode, 200);
    assertError(await h.request({ method: 'GET', url: '/api/v4/users/me', remoteAddress: '10.0.0.1' }), 429, 'api.context.rate_limit.app_error');
    assert.equal((await h.request({ method: 'GET', url: '/api/v4/users/me', remoteAddress: '10.0.0.2' })).statusCode, 200);
  } finally {
    await h.stop();
  }
});

test('when VaryByUser is on, then each valid token has its own bucket; VaryByHeader splits by that header, case-insensitively', async () => {
  const h = await startHarness({ config: limits({ PerSec: 1, MaxBurst: 0, VaryByUser: true, VaryByHeader: 'X-Tenant' }) });
  try {
    const a = session();
    const b = session();
    h.usersBots.sessions.set(a.token, a.session);
    h.usersBots.sessions.set(b.token, b.session);
    const call = (auth: string, tenant: string) => h.request({ method: 'GET', url: '/api/v4/users/me', headers: { authorization: `Bearer ${auth}`, 'x-tenant': tenant } });
    assert.equal((await call(a.token, 'One')).statusCode, 200);
    assertError(await call(a.token, 'one'), 429, 'api.context.rate_limit.app_error');
    assert.equal((await call(a.token, 'two')).statusCode, 200);
    assert.equal((await call(b.token, 'one')).statusCode, 200);
  } finally {
    await h.stop();
  }
});

test('when VaryByUser is on and tokens are made up (or absent), then they all count against the client address', async () => {
  const h = await startHarness({ config: limits({ PerSec: 1, MaxBurst: 2, VaryByUser: true, VaryByRemoteAddr: false }) });
  try {
    const valid = session();
    h.usersBots.sessions.set(valid.token, valid.session);
    const call = (headers: Record<string, string>, remoteAddress: string) => h.request({ method: 'GET', url: '/api/v4/users/me', headers, remoteAddress });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await call({ authorization: `Bearer invented${i}${'x'.repeat(20)}` }, '10.1.1.1')).statusCode);
    assert.deepEqual(statuses, [200, 200, 200, 429, 429, 429], 'three in the burst, then the address is limited whatever the token');
    assertError(await call({}, '10.1.1.1'), 429, 'api.context.rate_limit.app_error', 'no token: the same address bucket');
    assertError(await call({ cookie: 'MMAUTHTOKEN=alsoinvented' }, '10.1.1.1'), 429, 'api.context.rate_limit.app_error');
    assert.equal((await call({ authorization: `Bearer ${valid.token}` }, '10.1.1.1')).statusCode, 200, 'a real session has its own bucket');
    assert.equal((await call({ authorization: 'Bearer invented-elsewhere' }, '10.1.1.2')).statusCode, 200, 'another address, another bucket');
  } finally {
    await h.stop();
  }
});

test('when rate limits are enabled or changed in the config, then they apply without restart', async () => {
  const h = await startHarness();
  try {
    assert.equal((await h.request({ method: 'GET', url: '/api/v4/users/me' })).headers['x-ratelimit-limit'], undefined);
    const config = h.usersBots.config;
    await h.publishConfig({ ...config, RateLimitSettings: { ...config.RateLimitSettings, Enable: true, PerSec: 1, MaxBurst: 0 } });
    assert.equal((await h.request({ method: 'GET', url: '/api/v4/users/me' })).statusCode, 200);
    assertError(await h.request({ method: 'GET', url: '/api/v4/users/me' }), 429, 'api.context.rate_limit.app_error');
    await h.publishConfig({ ...config, RateLimitSettings: { ...config.RateLimitSettings, Enable: true, PerSec: 1, MaxBurst: 9 } });
    const res = await h.request({ method: 'GET', url: '/api/v4/users/me' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-ratelimit-limit'], '10');
    await h.publishConfig({ ...config, RateLimitSettings: { ...config.RateLimitSettings, Enable: false } });
    assert.equal((await h.request({ method: 'GET', url: '/api/v4/users/me' })).headers['x-ratelimit-limit'], undefined);
  } finally {
    await h.stop();
  }
});

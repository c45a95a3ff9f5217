import { test } from 'node:test';
import assert from 'node:assert/strict';
import { listen } from '@switchyard/http-kit';
import { metricsRegistry } from '@switchyard/metrics';
import type { Echo } from './test-support/fake-services';
import { startHarness } from './test-support/harness';

test('when public routes are called, then each reaches its owning service with method, path, query and raw body unchanged', async () => {
  const h = await startHarness({ services: ['users-bots', 'posts', 'incoming-hooks', 'outgoing-dispatch'] });
  try {
    const cases: [string, string, string][] = [
      ['GET', '/api/v4/users/me?x=1&y=%20z', 'users-bots'],
      ['PUT', '/api/v4/config/patch', 'users-bots'],
      ['GET', '/api/v4/teams/t1/channels', 'posts'],
      ['POST', '/api/v4/posts', 'posts'],
      ['DELETE', '/api/v4/users/u1/posts/p1/reactions/smile', 'posts'],
      ['POST', '/api/v4/posts/p1/actions/a1', 'outgoing-dispatch'],
      ['POST', '/api/v4/hooks/incoming', 'incoming-hooks'],
      ['POST', '/hooks/somekey', 'incoming-hooks'],
      ['GET', '/api/v4/hooks/outgoing', 'outgoing-dispatch'],
    ];
    for (const [method, url, service] of cases) {
      const body = method === 'GET' || method === 'DELETE' ? undefined : '{"raw": true,  "spaces":1}';
      const echo = await h.echo({ method: method as 'GET', url, ...(body ? { payload: body, headers: { 'content-type': 'application/json' } } : {}) });
      assert.equal(echo.service, service, url);
      assert.equal(echo.method, method);
      assert.equal(echo.url, url);
      assert.equal(echo.body, body ?? '');
    }
  } finally {
    await h.stop();
  }
});

test('when a route is unknown or its service is not registered, then 404 api.context.404.app_error as JSON', async () => {
  const h = await startHarness({ services: ['users-bots'] });
  try {
    for (const url of ['/api/v4/nothing-here', '/api/v4/posts', '/hooks/abc', '/somewhere']) {
      const res = await h.request({ method: 'POST', url, payload: '{}' });
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.headers['content-type'], 'application/json');
      assert.equal(res.json().id, 'api.context.404.app_error');
      assert.equal(res.json().request_id, res.headers['x-request-id']);
    }
  } finally {
    await h.stop();
  }
});

test('when a service is down or does not answer in time, then 503 server_busy JSON, not a hang or a 500', async () => {
  const h = await startHarness({ env: { UPSTREAM_TIMEOUT_MS: '200' } });
  try {
    h.transport.down.add('posts');
    const down = await h.request({ method: 'GET', url: '/api/v4/posts/p1' });
    assert.equal(down.statusCode, 503);
    assert.equal(down.headers['content-type'], 'application/json');
    assert.equal(down.json().id, 'api.context.server_busy.app_error');
    h.transport.hanging.add('users-bots');
    const hung = await h.request({ method: 'GET', url: '/api/v4/users/me' });
    assert.equal(hung.statusCode, 503);
    assert.equal(hung.json().id, 'api.context.server_busy.app_error');
  } finally {
    await h.stop();
  }
});

test('when a service answers an error, a 201, a 204 or extra headers, then the client gets them unchanged', async () => {
  const h = await startHarness();
  try {
    const fail = await h.request({ method: 'GET', url: '/api/v4/posts/fail' });
    assert.equal(fail.statusCode, 400);
    assert.equal(fail.json().id, 'x.fail.app_error');
    assert.equal(fail.json().request_id, fail.headers['x-request-id']);
    assert.equal((await h.request({ method: 'POST', url: '/api/v4/posts/created' })).statusCode, 201);
    const none = await h.request({ method: 'DELETE', url: '/api/v4/posts/nocontent' });
    assert.equal(none.statusCode, 204);
    assert.equal(none.body, '');
    const cookie = await h.request({ method: 'GET', url: '/api/v4/users/cookie' });
    assert.deepEqual(cookie.headers['set-cookie'], ['a=1; Path=/', 'b=2; Path=/']);
    assert.equal(cookie.headers['x-custom'], 'yes');
    assert.notEqual(cookie.headers.connection, 'close');
  } finally {
    await h.stop();
  }
});

test('when a client sends x-switchyard-* or hop-by-hop headers, then the service never sees them, but gets the others', async () => {
  const h = await startHarness();
  try {
    const echo = await h.echo({
      method: 'GET',
      url: '/api/v4/users/me',
      headers: {
        'x-switchyard-identity': 'forged',
        'x-switchyard-identity-signature': 'forged',
        'x-switchyard-anything': 'x',
        'x-request-id': 'aaaaaaaaaaaaaaaaaaaaaaaaaa',
        'proxy-authorization': 'secret',
        'x-custom-client': 'kept',
        'accept-language': 'fr',
      },
    });
    assert.equal(echo.identity, null);
    assert.deepEqual(Object.keys(echo.headers).filter((k) => k.startsWith('x-switchyard-')), []);
    assert.equal(echo.headers['proxy-authorization'], undefined);
    assert.equal(echo.headers['x-custom-client'], 'kept');
    assert.equal(echo.headers['accept-language'], 'fr');
    assert.notEqual(echo.headers['x-request-id'], 'aaaaaaaaaaaaaaaaaaaaaaaaaa');
  } finally {
    await h.stop();
  }
});

test('when a request is forwarded, then the service gets the same new 26-char request id the client sees', async () => {
  const h = await startHarness();
  try {
    const res = await h.request({ method: 'GET', url: '/api/v4/users/me' });
    const id = res.headers['x-request-id'];
    assert.match(String(id), /^[a-z0-9]{26}$/);
    assert.equal(res.json().headers['x-request-id'], id);
    assert.equal(res.json().headers['x-forwarded-for'], '127.0.0.1');
  } finally {
    await h.stop();
  }
});

test('when TRUST_PROXY is on, then the client address comes from X-Forwarded-For', async () => {
  const h = await startHarness({ env: { TRUST_PROXY: 'true' } });
  try {
    const echo = await h.echo({ method: 'GET', url: '/api/v4/users/me', headers: { 'x-forwarded-for': '203.0.113.7' } });
    assert.equal(echo.headers['x-forwarded-for'], '203.0.113.7');
  } finally {
    await h.stop();
  }
});

test('when the gateway serves real sockets in front of in-process express services, then every request keeps working', async () => {
  const h = await startHarness();
  const server = await listen(h.gateway.handler, 0, '127.0.0.1');
  try {
    for (let i = 0; i < 3; i += 1) {
      const res = await fetch(`${server.url}/api/v4/posts?i=${i}`, { method: 'POST', body: '{"n":1}' });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/json');
      assert.equal(((await res.json()) as Echo).body, '{"n":1}');
    }
    const missing = await fetch(`${server.url}/api/v4/nothing`);
    assert.equal(missing.status, 404);
    assert.equal(((await missing.json()) as { id: string }).id, 'api.context.404.app_error');
  } finally {
    await server.close();
    await h.stop();
  }
});

test('when requests are forwarded, then the request metric names each by its route table pattern, not unmatched', async () => {
  const h = await startHarness({ services: ['users-bots', 'posts', 'incoming-hooks'] });
  const count = async (route: string, method: string): Promise<number> => {
    const text = await metricsRegistry().getSingleMetricAsString('switchyard_http_request_duration_seconds');
    const line = text.split('\n').find((l) => l.startsWith(`switchyard_http_request_duration_seconds_count{service="gateway",route="${route}",method="${method}",status_code="200"}`));
    return line === undefined ? 0 : Number(line.split(' ').pop());
  };
  try {
    const before = { hooks: await count('/hooks/*', 'POST'), channels: await count('/api/v4/teams/*/channels/**', 'GET'), unmatched: await count('unmatched', 'GET') };
    await h.echo({ method: 'POST', url: '/hooks/somekey', payload: '{}', headers: { 'content-type': 'application/json' } });
    await h.echo({ method: 'POST', url: '/hooks/otherkey?x=1', payload: '{}', headers: { 'content-type': 'application/json' } });
    await h.echo({ method: 'GET', url: '/api/v4/teams/t1/channels' });
    assert.equal(await count('/hooks/*', 'POST'), before.hooks + 2);
    assert.equal(await count('/api/v4/teams/*/channels/**', 'GET'), before.channels + 1);
    assert.equal(await count('unmatched', 'GET'), before.unmatched);
  } finally {
    await h.stop();
  }
});

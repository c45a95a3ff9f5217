import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { listen } from '@switchyard/http-kit';
import { cleanPath, decidePath } from './domain/canonical-path';
import { session, type Echo } from './test-support/fake-services';
import { startHarness, type Harness } from './test-support/harness';

test('when a path is plain, then it is forwarded as it came (query untouched)', () => {
  for (const target of ['/api/v4/users/me', '/api/v4/users?page=1&per_page=2', '/hooks/abc123', '/api/v4/websocket/', '/hooks/abc123/', '/api/v4/emoji/name/a+b:c@d', '/a?x=../..%2f']) {
    assert.deepEqual(decidePath(target), { kind: 'forward', target });
  }
});

test('when segments are percent-encoded, then they are decoded once and re-encoded canonically', () => {
  assert.deepEqual(decidePath('/api/v4/us%65rs/%6De?x=%2e%2e'), { kind: 'forward', target: '/api/v4/users/me?x=%2e%2e' });
  assert.deepEqual(decidePath('/api/v4/users/a%20b'), { kind: 'forward', target: '/api/v4/users/a%20b' });
  assert.deepEqual(decidePath('/api/v4/users/%252e%252e'), { kind: 'forward', target: '/api/v4/users/%252e%252e' }, 'double-encoded dots stay a literal name');
  assert.deepEqual(decidePath('/api/v4/users/caf%C3%A9'), { kind: 'forward', target: '/api/v4/users/caf%C3%A9' });
});

test('when the decoded path has dot or empty segments, then 301 to the cleaned path, query kept (the reference router)', () => {
  const cases: [string, string][] = [
    ['/api/v4/users/x/../me', '/api/v4/users/me'],
    ['/api/v4/users/%2e%2e/%2e%2e/%2e%2e/internal/v1/config', '/internal/v1/config'],
    ['/api/v4/users/.%2e/.%2E/%2E./internal/v1/config', '/internal/v1/config'],
    ['/api/v4/posts/%2E%2E/%2E%2E/%2E%2E/internal/v1/posts/abc?x=1', '/internal/v1/posts/abc?x=1'],
    ['/api/v4/posts/p1//reactions', '/api/v4/posts/p1/reactions'],
    ['//api/v4/users/me', '/api/v4/users/me'],
    ['/api/v4/posts//reactions', '/api/v4/posts/reactions'],
    ['/api/v4/users/./me/', '/api/v4/users/me/'],
    ['/api/v4/users/%2e/me', '/api/v4/users/me'],
    ['/hooks/../api/v4/users/me', '/api/v4/users/me'],
    ['/../../etc/passwd', '/etc/passwd'],
  ];
  for (const [target, location] of cases) assert.deepEqual(decidePath(target), { kind: 'redirect', location }, target);
});

test('when a segment holds an encoded slash or backslash (any case) or a raw backslash, then not found', () => {
  for (const target of ['/api/v4/users/me%2f..%2f..%2finternal', '/api/v4/users/%2F', '/api/v4/users/a%5cb', '/api/v4/users/a%5C..%5C..', '/api/v4/users/a\\..\\b', '/hooks/x%2fy']) {
    assert.deepEqual(decidePath(target), { kind: 'not-found' }, target);
  }
  assert.deepEqual(decidePath('http://evil/api/v4/users/me'), { kind: 'not-found' });
  assert.deepEqual(decidePath('/api/v4/users/%zz'), { kind: 'bad-escape' });
});

test('when an /api/v4 path ends with a slash, then not found as the reference router (websocket/ excepted)', () => {
  for (const target of ['/api/v4/users/me/', '/api/v4/users/me/?x=1', '/api/v4/posts/p1/reactions/', '/api/v4/users/%6De/', '/api/v4/']) {
    assert.deepEqual(decidePath(target), { kind: 'not-found' }, target);
  }
  assert.deepEqual(decidePath('/api/v4/users/./me/'), { kind: 'redirect', location: '/api/v4/users/me/' }, 'cleaned first, then the clean path is 404');
  assert.deepEqual(decidePath('/api/v4/websocket/'), { kind: 'forward', target: '/api/v4/websocket/' });
});

test('cleanPath matches gorilla/mux (Go path.Clean, trailing slash restored)', () => {
  assert.equal(cleanPath('/'), '/');
  assert.equal(cleanPath('//'), '/');
  assert.equal(cleanPath('/a/..'), '/');
  assert.equal(cleanPath('/a/../'), '/');
  assert.equal(cleanPath('/a/b/../c/./d/'), '/a/c/d/');
  assert.equal(cleanPath('/../a'), '/a');
});

interface Raw {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** Sends the target byte for byte (fetch and light-my-request would resolve the dot segments first). */
function send(base: string, method: string, target: string, headers: Record<string, string> = {}, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const length = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) };
    const req = httpRequest(`${base}/`, { method, path: target, headers: { ...headers, ...length } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function withEdge(run: (base: string, h: Harness) => Promise<void>): Promise<void> {
  const h = await startHarness({ services: ['users-bots', 'posts', 'incoming-hooks', 'outgoing-dispatch'] });
  const edge = await listen(h.gateway.handler, 0, '127.0.0.1');
  try {
    await run(edge.url, h);
  } finally {
    await edge.close();
    await h.stop();
  }
}

test('when an authenticated caller hides dot segments in /api/v4 or /hooks paths, then 301 and no service is called', async () => {
  await withEdge(async (base, h) => {
    const s = session();
    h.usersBots.sessions.set(s.token, s.session);
    const dots = ['%2e%2e', '.%2e', '%2e.', '%2E%2E', '..'];
    const prefixes = ['/api/v4/users', '/api/v4/posts', '/api/v4/channels', '/api/v4/hooks/incoming', '/api/v4/teams/t1/channels', '/hooks'];
    for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
      for (const dot of dots) {
        for (const prefix of prefixes) {
          const target = `${prefix}/${`${dot}/`.repeat(6)}internal/v1/config`;
          const before = h.transport.calls.length;
          const res = await send(base, method, target, { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' }, method === 'GET' ? undefined : '{"message":"x"}');
          assert.equal(res.status, 301, `${method} ${target}`);
          assert.equal(res.headers.location, '/internal/v1/config');
          assert.equal(res.body, '');
          // The reference's router answers before any handler: none of the handler's headers.
          for (const name of ['x-request-id', 'x-version-id', 'x-content-type-options', 'referrer-policy', 'permissions-policy', 'expires']) {
            assert.equal(res.headers[name], undefined, `${method} ${target}: ${name}`);
          }
          assert.equal(h.transport.calls.length, before, `${method} ${target} reached a service`);
        }
      }
    }
    // Following the redirect reaches no service either (outside /api and /hooks only the console page answers).
    const before = h.transport.calls.length;
    const followed = await send(base, 'GET', '/internal/v1/config', { authorization: `Bearer ${s.token}` });
    assert.ok(followed.status === 404 || String(followed.headers['content-type']).startsWith('text/html'), `${followed.status} ${followed.body.slice(0, 80)}`);
    assert.ok(!followed.body.includes('ServiceSettings'));
    assert.equal(h.transport.calls.length, before);
  });
});

test('when a segment carries an encoded slash or backslash, then 404 api.context.404.app_error and no service is called', async () => {
  await withEdge(async (base, h) => {
    const s = session();
    h.usersBots.sessions.set(s.token, s.session);
    for (const target of ['/api/v4/users/me%2f..%2f..%2f..%2finternal%2fv1%2fconfig', '/api/v4/posts/x%5c..%5c..%5cinternal', '/api/v4/posts/x%2F..', '/hooks/abc%2fdef', '/api/v4/users/a\\..\\..\\internal']) {
      const before = h.transport.calls.length;
      const res = await send(base, 'GET', target, { authorization: `Bearer ${s.token}` });
      assert.equal(res.status, 404, target);
      assert.equal(JSON.parse(res.body).id, 'api.context.404.app_error');
      assert.equal(h.transport.calls.filter((c) => c.service !== 'users-bots').length, h.transport.calls.slice(0, before).filter((c) => c.service !== 'users-bots').length, target);
    }
  });
});

test('when a path is encoded but clean, then the service gets exactly the canonical path the gateway routed on', async () => {
  await withEdge(async (base, h) => {
    const res = await send(base, 'GET', '/api/v4/p%6Fsts/a%2Eb/c%20d?q=%2e%2e/x');
    assert.equal(res.status, 200, res.body);
    const echo = JSON.parse(res.body) as Echo;
    assert.equal(echo.service, 'posts');
    assert.equal(echo.url, '/api/v4/posts/a.b/c%20d?q=%2e%2e/x');
    assert.deepEqual(h.transport.calls.at(-1)?.request.path, '/api/v4/posts/a.b/c%20d?q=%2e%2e/x');
  });
});

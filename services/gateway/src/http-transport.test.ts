import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { MemoryEventBus } from '@switchyard/event-bus';
import { HttpTransport, listen } from '@switchyard/http-kit';
import { createSilentLogger } from '@switchyard/logger';
import { createGatewayApp } from './app';
import { loadGatewayConfig } from './config';
import { fakeService, fakeUsersBots, SECRET, session, type Echo } from './test-support/fake-services';

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('when services are reached over HTTP (distributed runtime), then identity, body and answers cross, and a dead service is 503', async () => {
  const usersBots = fakeUsersBots();
  const s = session();
  usersBots.sessions.set(s.token, s.session);
  const ub = await listen(usersBots.app, 0, '127.0.0.1');
  const posts = await listen(fakeService('posts'), 0, '127.0.0.1');
  const deadPort = await closedPort();
  const transport = new HttpTransport({ 'users-bots': ub.url, posts: posts.url, 'incoming-hooks': `http://127.0.0.1:${deadPort}` }, 2000);
  const bus = new MemoryEventBus();
  const gateway = createGatewayApp(loadGatewayConfig({ INTERNAL_SECRET: SECRET }), {
    logger: createSilentLogger(),
    bus,
    transport,
    services: ['users-bots', 'posts', 'incoming-hooks'],
  });
  await gateway.start();
  const edge = await listen(gateway.handler, 0, '127.0.0.1');
  try {
    assert.equal((await gateway.health()).ok, true);
    const res = await fetch(`${edge.url}/api/v4/posts?x=1`, { method: 'POST', headers: { authorization: `Bearer ${s.token}`, 'x-switchyard-identity': 'forged' }, body: '{"message":"hi"}' });
    assert.equal(res.status, 200);
    const echo = (await res.json()) as Echo;
    assert.equal(echo.identity?.userId, s.session.userId);
    assert.equal(echo.body, '{"message":"hi"}');
    assert.equal(echo.url, '/api/v4/posts?x=1');
    assert.equal(echo.headers['x-request-id'], res.headers.get('x-request-id'));
    const dead = await fetch(`${edge.url}/hooks/abc`, { method: 'POST', body: '{}' });
    assert.equal(dead.status, 503);
    assert.equal(dead.headers.get('content-type'), 'application/json');
    assert.equal(((await dead.json()) as { id: string }).id, 'api.context.server_busy.app_error');
    const ping = await fetch(`${edge.url}/api/v4/system/ping`);
    assert.equal(ping.status, 500);
  } finally {
    await edge.close();
    await gateway.stop();
    await bus.close();
    await transport.close();
    await ub.close();
    await posts.close();
  }
});

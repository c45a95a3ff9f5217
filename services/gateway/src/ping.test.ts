import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from './test-support/harness';

test('when every registered service is ready, then GET /api/v4/system/ping answers {"status":"OK"}', async () => {
  const h = await startHarness();
  try {
    const res = await h.request({ method: 'GET', url: '/api/v4/system/ping' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'application/json');
    assert.deepEqual(res.json(), { status: 'OK' });
  } finally {
    await h.stop();
  }
});

test('when a service is not ready or down, then ping answers 500 UNHEALTHY naming it', async () => {
  const h = await startHarness();
  try {
    h.usersBots.state.ready = false;
    const notReady = await h.request({ method: 'GET', url: '/api/v4/system/ping' });
    assert.equal(notReady.statusCode, 500);
    assert.deepEqual(notReady.json(), { status: 'UNHEALTHY', services: { gateway: 'OK', 'users-bots': 'UNHEALTHY', posts: 'OK' } });
    h.usersBots.state.ready = true;
    h.transport.down.add('posts');
    const down = await h.request({ method: 'GET', url: '/api/v4/system/ping' });
    assert.equal(down.statusCode, 500);
    assert.equal(down.json().services.posts, 'UNHEALTHY');
  } finally {
    await h.stop();
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SERVER_VERSION } from '@switchyard/contracts';
import { startHarness } from './test-support/harness';

function assertStandard(headers: Record<string, unknown>, method: string): void {
  assert.match(String(headers['x-request-id']), /^[a-z0-9]{26}$/);
  assert.match(String(headers['x-version-id']), new RegExp(`^${SERVER_VERSION.replace(/\./g, '\\.')}\\.dev\\.[0-9a-f]{32}\\.false$`));
  assert.equal(headers['x-content-type-options'], 'nosniff');
  assert.equal(headers['referrer-policy'], 'no-referrer');
  assert.equal(headers['permissions-policy'], '');
  assert.equal(headers.expires, method === 'GET' ? '0' : undefined);
}

test('when a request is forwarded, then the response carries the standard header set', async () => {
  const h = await startHarness();
  try {
    const get = await h.request({ method: 'GET', url: '/api/v4/users/me' });
    assertStandard(get.headers, 'GET');
    assert.equal(get.headers['content-type'], 'application/json');
    const post = await h.request({ method: 'POST', url: '/api/v4/posts', payload: '{}' });
    assertStandard(post.headers, 'POST');
  } finally {
    await h.stop();
  }
});

test('when the gateway answers itself (errors, ping), then Content-Type is exactly application/json and the set is complete', async () => {
  const h = await startHarness({ services: ['users-bots'] });
  try {
    for (const [method, url] of [
      ['GET', '/api/v4/unknown'],
      ['POST', '/api/v4/channels'],
      ['GET', '/api/v4/system/ping'],
      ['GET', '/api/v4/users/me?access_token=nope'],
    ] as const) {
      const res = await h.request({ method, url });
      assertStandard(res.headers, method);
      assert.equal(res.headers['content-type'], 'application/json', url);
      assert.doesNotThrow(() => res.json());
    }
  } finally {
    await h.stop();
  }
});

test('when the config changes, then X-Version-Id changes with it', async () => {
  const h = await startHarness();
  try {
    const before = (await h.request({ method: 'GET', url: '/api/v4/users/me' })).headers['x-version-id'];
    await h.publishConfig({ ...h.usersBots.config, ServiceSettings: { ...h.usersBots.config.ServiceSettings, EnableDeveloper: true } });
    const after = (await h.request({ method: 'GET', url: '/api/v4/users/me' })).headers['x-version-id'];
    assert.notEqual(after, before);
  } finally {
    await h.stop();
  }
});

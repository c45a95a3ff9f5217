import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '@switchyard/config';
import { loadGatewayConfig } from './config';

test('when only INTERNAL_SECRET is given, then the defaults apply', () => {
  const config = loadGatewayConfig({ INTERNAL_SECRET: 'x'.repeat(16) });
  assert.equal(config.PORT, 8065);
  assert.deepEqual(config.SERVICE_URLS, {});
  assert.equal(config.TRUST_PROXY, false);
  assert.equal(config.LOG_LEVEL, 'info');
});

test('when SERVICE_URLS lists services, then it becomes a name → url map', () => {
  const config = loadGatewayConfig({ INTERNAL_SECRET: 'x'.repeat(16), SERVICE_URLS: 'users-bots=http://127.0.0.1:8066, posts=http://127.0.0.1:8067', TRUST_PROXY: 'true', PORT: '9000' });
  assert.deepEqual(config.SERVICE_URLS, { 'users-bots': 'http://127.0.0.1:8066', posts: 'http://127.0.0.1:8067' });
  assert.equal(config.TRUST_PROXY, true);
  assert.equal(config.PORT, 9000);
});

test('when the secret is missing or short and SERVICE_URLS is malformed, then every problem is listed', () => {
  assert.throws(
    () => loadGatewayConfig({ SERVICE_URLS: 'posts' }),
    (error: unknown) => error instanceof ConfigError && error.problems.length === 2,
  );
  assert.throws(() => loadGatewayConfig({ INTERNAL_SECRET: 'short' }), ConfigError);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inject } from 'light-my-request';
import { MemoryEventBus } from '@switchyard/event-bus';
import { ConfigError } from '@switchyard/config';
import { createApp, loadUsersBotsConfig, memoryRepositories } from './index';
import { fastHasher, silentLogger } from './test-support/domain-harness';

test('when the env lacks INTERNAL_SECRET or has a bad PORT, then every problem is reported at once', () => {
  assert.throws(() => loadUsersBotsConfig({ PORT: 'abc' }), (e: unknown) => e instanceof ConfigError && e.problems.length === 2);
  const config = loadUsersBotsConfig({ INTERNAL_SECRET: 'x'.repeat(32) });
  assert.equal(config.PORT, 8066);
  assert.equal(config.LOG_LEVEL, 'info');
});

test('when the app starts and stops, then readiness follows and repositories passed in are used', async () => {
  const bus = new MemoryEventBus();
  const repositories = memoryRepositories();
  const app = createApp(loadUsersBotsConfig({ INTERNAL_SECRET: 'y'.repeat(32) }), { logger: silentLogger, bus, repositories: { users: repositories.users }, passwordHasher: fastHasher });
  assert.equal((await inject(app.handler, { method: 'GET', url: '/health/ready' })).statusCode, 503);
  assert.equal((await inject(app.handler, { method: 'GET', url: '/health/live' })).statusCode, 200);
  await app.start();
  assert.equal((await app.health()).ok, true);
  assert.equal((await inject(app.handler, { method: 'GET', url: '/health/ready' })).statusCode, 200);
  assert.equal((await repositories.users.findByUsername('switchyard'))?.isBot, true);
  await app.stop();
  assert.equal((await app.health()).ok, false);
  await bus.close();
});

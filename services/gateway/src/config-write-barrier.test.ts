import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultSystemConfig } from '@switchyard/system-config';
import { setImmediate as turn } from 'node:timers/promises';
import { eventually, startHarness } from './test-support/harness';

test('when a config write succeeds, then the answer waits until its config.updated event reached the gateway', async () => {
  const h = await startHarness({ env: { CONFIG_WRITE_TIMEOUT_MS: '5000', CONFIG_WRITE_SETTLE_MS: '0' } });
  try {
    const newer = defaultSystemConfig();
    newer.ServiceSettings.EnableDeveloper = true;
    let answeredYet = false;
    const answered = h.request({ method: 'PUT', url: '/api/v4/config/patch', payload: '{}', headers: { 'content-type': 'application/json' } }).finally(() => (answeredYet = true));
    // users-bots answered the write; its config.updated event has not reached the gateway yet (as with Kafka).
    await eventually(() => h.transport.answered.some((c) => c.request.path.startsWith('/api/v4/config/patch')));
    for (let i = 0; i < 20; i += 1) await turn();
    assert.equal(answeredYet, false, 'the answer waits for the event');
    await h.publishConfig(newer);
    const res = await answered;
    assert.equal(res.statusCode, 200);
    assert.equal(h.gateway.config.current().ServiceSettings.EnableDeveloper, true);
  } finally {
    await h.stop();
  }
});

test('when no config event follows a write, then the answer still goes after the bound', async () => {
  const h = await startHarness({ env: { CONFIG_WRITE_TIMEOUT_MS: '150' } });
  try {
    const res = await h.request({ method: 'PUT', url: '/api/v4/config/patch', payload: '{}', headers: { 'content-type': 'application/json' } });
    assert.equal(res.statusCode, 200);
    assert.equal(h.gateway.config.current().ServiceSettings.EnableDeveloper, false);
    const read = await h.request({ method: 'GET', url: '/api/v4/config' });
    assert.notEqual(read.statusCode, 500);
  } finally {
    await h.stop();
  }
});

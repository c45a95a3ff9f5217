import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, startHarness } from './test-support/harness';

test('when users-bots is not ready at start, then the gateway retries the config and is not ready until it has it', async () => {
  const h = await startHarness({ start: false, config: (c) => (c.ServiceSettings.MaximumPayloadSizeBytes = 10) });
  h.usersBots.failConfigTimes = 2;
  try {
    await h.gateway.start();
    const before = await h.gateway.health();
    assert.equal(before.ok, false);
    assert.equal(before.checks.config, false);
    assert.equal((await h.request({ method: 'GET', url: '/health/ready' })).statusCode, 503);
    await eventually(async () => (await h.gateway.health()).ok, 3000);
    assert.equal(h.usersBots.configCalls, 3);
    assert.equal(h.gateway.config.current().ServiceSettings.MaximumPayloadSizeBytes, 10);
    assert.equal((await h.request({ method: 'GET', url: '/health/ready' })).statusCode, 200);
  } finally {
    await h.stop();
  }
});

test('when a config.updated event arrives, then the live config is replaced (defaults filled in)', async () => {
  const h = await startHarness();
  try {
    assert.equal(h.gateway.config.current().ServiceSettings.ExperimentalStrictCSRFEnforcement, false);
    const next = JSON.parse(JSON.stringify(h.usersBots.config)) as Record<string, Record<string, unknown>>;
    next.ServiceSettings!.ExperimentalStrictCSRFEnforcement = true;
    delete next.DeliverySettings;
    await h.bus.publish('config.events', [{ key: 'config', value: { id: 'e1', type: 'config.updated', version: 1, time: Date.now(), payload: { config: next } } }]);
    await eventually(() => h.gateway.config.current().ServiceSettings.ExperimentalStrictCSRFEnforcement);
    assert.equal(h.gateway.config.current().DeliverySettings.JitterPercent, 20);
  } finally {
    await h.stop();
  }
});

test('when a config event lands while the first load is on its way, then the older load does not overwrite it', async () => {
  const h = await startHarness({ start: false });
  let release: () => void = () => undefined;
  h.usersBots.holdConfig = new Promise((resolve) => (release = resolve));
  try {
    const started = h.gateway.start(); // its config request waits in users-bots with the old document
    await eventually(() => h.usersBots.configCalls === 1);
    const newer = { ...h.usersBots.config, ServiceSettings: { ...h.usersBots.config.ServiceSettings, MaximumPayloadSizeBytes: 4242 } };
    await h.publishConfig(newer);
    await eventually(() => h.gateway.config.current().ServiceSettings.MaximumPayloadSizeBytes === 4242);
    release(); // the stale document arrives after the event
    await started;
    assert.equal(h.usersBots.configCalls, 1);
    assert.equal((await h.gateway.health()).ok, true);
    assert.equal(h.gateway.config.current().ServiceSettings.MaximumPayloadSizeBytes, 4242);
  } finally {
    release();
    await h.stop();
  }
});

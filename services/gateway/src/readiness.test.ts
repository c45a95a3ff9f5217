import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from './test-support/harness';

test('when the event bus is unhealthy (a Kafka blip), then the gateway stays ready and reports bus false (ADR 0025)', async () => {
  const h = await startHarness();
  try {
    h.bus.health = () => Promise.resolve(false);
    const report = await h.gateway.health();
    assert.equal(report.ok, true);
    assert.equal(report.checks.bus, false);
    const res = await h.request({ method: 'GET', url: '/health/ready' });
    assert.equal(res.statusCode, 200);
    assert.equal((JSON.parse(res.body) as { checks: { bus: boolean } }).checks.bus, false);
  } finally {
    await h.stop();
  }
});

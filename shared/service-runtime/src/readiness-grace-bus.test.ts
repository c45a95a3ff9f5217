import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryEventBus } from '@switchyard/event-bus';
import { ReadinessGraceBus } from './readiness-grace-bus';

/** A memory bus whose health the test sets. */
function flakyBus(): { bus: MemoryEventBus; state: { healthy: boolean } } {
  const state = { healthy: true };
  const bus = new MemoryEventBus();
  bus.health = () => Promise.resolve(state.healthy);
  return { bus, state };
}

test('when the inner bus fails for less than the grace, then health stays true; past it, false; back, true at once', async () => {
  const { bus, state } = flakyBus();
  let now = 1_000;
  const graced = new ReadinessGraceBus(bus, 20_000, () => now);
  assert.equal(await graced.health(), true);
  state.healthy = false;
  assert.equal(await graced.health(), true, 'the first failure starts the grace');
  now += 19_999;
  assert.equal(await graced.health(), true);
  now += 1;
  assert.equal(await graced.health(), false, 'failing for the whole grace');
  state.healthy = true;
  assert.equal(await graced.health(), true);
  state.healthy = false;
  now += 5_000;
  assert.equal(await graced.health(), true, 'a new failure starts a new grace');
  await graced.close();
});

test('when the inner health check throws, then it counts as failing (with the grace)', async () => {
  const { bus } = flakyBus();
  bus.health = () => Promise.reject(new Error('describeCluster timed out'));
  let now = 0;
  const graced = new ReadinessGraceBus(bus, 1_000, () => now);
  assert.equal(await graced.health(), true);
  now = 1_000;
  assert.equal(await graced.health(), false);
});

test('when messages are published and consumed through it, then they reach the inner bus unchanged', async () => {
  const inner = new MemoryEventBus();
  const graced = new ReadinessGraceBus(inner, 1_000);
  const seen: unknown[] = [];
  await graced.subscribe({ groupId: 'g', topics: ['t'], handler: async (m) => void seen.push(m.value) });
  await graced.publish('t', [{ key: 'k', value: { n: 1 } }]);
  for (let i = 0; i < 50 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(seen, [{ n: 1 }]);
  await graced.close();
});

test('when the inner health check hangs, then it counts as failing after the check bound (the grace still applies)', async () => {
  const { bus } = flakyBus();
  bus.health = () => new Promise<boolean>(() => undefined);
  let now = 0;
  const graced = new ReadinessGraceBus(bus, 1_000, () => now, 20);
  assert.equal(await graced.health(), true, 'first failure: inside the grace');
  now = 1_000;
  assert.equal(await graced.health(), false);
});

test('when asked for partition ends, then the inner bus answers (realtime event cursors need them)', async () => {
  const bus = new MemoryEventBus({ defaultPartitions: 2 });
  await bus.publish('t', [{ key: 'a', value: 1 }]);
  const graced = new ReadinessGraceBus(bus, 1_000);
  assert.deepEqual(await graced.endOffsets(['t']), await bus.endOffsets(['t']));
  await graced.close();
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readiness } from './readiness';

test('when every check holds, then the report is ok and names each check', async () => {
  const report = await readiness({ started: () => true, bus: async () => true })();
  assert.deepEqual(report, { ok: true, checks: { started: true, bus: true } });
});

test('when a check is false, rejects or throws, then it reads false and the report is not ok', async () => {
  const report = await readiness({
    started: () => true,
    bus: () => Promise.reject(new Error('down')),
    config: () => {
      throw new Error('boom');
    },
    cache: () => false,
  })();
  assert.deepEqual(report, { ok: false, checks: { started: true, bus: false, config: false, cache: false } });
});

test('when a check changes between calls, then each call reads it again', async () => {
  let started = false;
  const ready = readiness({ started: () => started });
  assert.equal((await ready()).ok, false);
  started = true;
  assert.equal((await ready()).ok, true);
});

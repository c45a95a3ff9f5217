import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boundedCheck } from './bounded-check';

test('when a check answers in time, then its answer; when it rejects or hangs past the bound, then false', async () => {
  assert.equal(await boundedCheck(() => Promise.resolve(true), 50), true);
  assert.equal(await boundedCheck(() => Promise.resolve(false), 50), false);
  assert.equal(await boundedCheck(() => Promise.reject(new Error('down')), 50), false);
  assert.equal(await boundedCheck(() => new Promise<boolean>(() => undefined), 20), false);
});

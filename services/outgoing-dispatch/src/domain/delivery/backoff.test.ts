import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backoffMs, isRetryableStatus, retryAfterMs } from './backoff';

test('when retries are counted, then each uses its RetryBackoffSeconds entry and none is left after the last', () => {
  const steps = [5, 30, 120];
  assert.equal(backoffMs(1, steps, 0), 5000);
  assert.equal(backoffMs(3, steps, 0), 120_000);
  assert.equal(backoffMs(4, steps, 0), undefined);
});

test('when jitter is 20 %, then the delay stays within ±20 % of the step (extremes of the random source)', () => {
  assert.equal(backoffMs(1, [10], 20, () => 0), 8000);
  assert.equal(backoffMs(1, [10], 20, () => 0.999999), 12_000);
  assert.equal(backoffMs(1, [10], 20, () => 0.5), 10_000);
});

test('when Retry-After is seconds or an HTTP date, then it becomes ms from now; garbage is ignored', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  assert.equal(retryAfterMs('7', now), 7000);
  assert.equal(retryAfterMs('Thu, 01 Jan 2026 00:00:30 GMT', now), 30_000);
  assert.equal(retryAfterMs('soon', now), undefined);
  assert.equal(retryAfterMs(undefined, now), undefined);
});

test('when a status is 408, 429 or 5xx, then it is retried; 2xx, 3xx, 400, 404 and 410 are not', () => {
  for (const status of [408, 429, 500, 502, 503, 599]) assert.equal(isRetryableStatus(status), true, String(status));
  for (const status of [200, 204, 302, 400, 401, 404, 410]) assert.equal(isRetryableStatus(status), false, String(status));
});

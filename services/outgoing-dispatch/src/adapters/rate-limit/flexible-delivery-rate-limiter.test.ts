import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FlexibleDeliveryRateLimiter } from './flexible-delivery-rate-limiter';

test('when a hook takes more than its rate plus burst, then the excess is told to wait, later ones longer, and other hooks are not affected', async () => {
  const limiter = new FlexibleDeliveryRateLimiter();
  const delays: number[] = [];
  for (let i = 0; i < 40; i += 1) delays.push(await limiter.delayMs('hook-a', 10, 5));
  assert.deepEqual(delays.slice(0, 15), Array.from({ length: 15 }, () => 0), 'rate 10 + burst 5 go at once');
  const waiting = delays.slice(15);
  assert.ok(waiting.every((d) => d > 0), 'the rest wait');
  assert.ok((waiting.at(-1) ?? 0) >= (waiting[0] ?? 0) + 1000, `later ones wait longer: ${waiting.join(',')}`);
  assert.equal(await limiter.delayMs('hook-b', 10, 5), 0);
});

test('when the rate is 0, then nothing is limited', async () => {
  const limiter = new FlexibleDeliveryRateLimiter();
  for (let i = 0; i < 100; i += 1) assert.equal(await limiter.delayMs('hook', 0, 0), 0);
});

import { afterEach, beforeEach, mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { rateLimiterContract } from '../contracts/rate-limiter.contract';
import { createMemoryRateLimiter } from './rate-limiter.memory';

// The memory limiter keeps its buckets in rate-limiter-flexible's memory store, which reads Date.now and
// expires records with setTimeout: node's mock timers move both, so time passes only when a test says so.
beforeEach(() => {
  mock.timers.enable({ apis: ['Date', 'setTimeout'], now: 1_700_000_000_000 });
});
afterEach(() => {
  mock.timers.reset();
});

rateLimiterContract('memory GCRA limiter', async () => ({
  limiter: createMemoryRateLimiter(),
  advance: async (ms) => {
    mock.timers.tick(ms);
  },
}));

test('when more keys than MemoryStoreSize are seen, then the oldest key is forgotten (its bucket is full again)', async () => {
  const limiter = createMemoryRateLimiter();
  const policy = { perSec: 1, maxBurst: 0, maxKeys: 2 };
  assert.equal((await limiter.consume('a', policy)).allowed, true);
  assert.equal((await limiter.consume('a', policy)).allowed, false);
  await limiter.consume('b', policy);
  await limiter.consume('c', policy);
  assert.equal((await limiter.consume('a', policy)).allowed, true);
});

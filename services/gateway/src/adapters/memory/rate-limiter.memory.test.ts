import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rateLimiterContract } from '../../test-support/rate-limiter.contract';
import { createMemoryRateLimiter } from './rate-limiter.memory';

rateLimiterContract('memory GCRA limiter', async () => createMemoryRateLimiter());

test('when more keys than MemoryStoreSize are seen, then the oldest key is forgotten (its bucket is full again)', async () => {
  const limiter = createMemoryRateLimiter();
  const policy = { perSec: 1, maxBurst: 0, maxKeys: 2 };
  assert.equal((await limiter.consume('a', policy)).allowed, true);
  assert.equal((await limiter.consume('a', policy)).allowed, false);
  await limiter.consume('b', policy);
  await limiter.consume('c', policy);
  assert.equal((await limiter.consume('a', policy)).allowed, true);
});

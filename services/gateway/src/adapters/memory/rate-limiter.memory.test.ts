import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryRateLimiter } from './rate-limiter.memory';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('when a fresh key bursts, then MaxBurst+1 requests pass and the next is refused', async () => {
  const limiter = createMemoryRateLimiter();
  const policy = { perSec: 10, maxBurst: 4, maxKeys: 100 };
  const remaining: number[] = [];
  for (let i = 0; i < 5; i += 1) {
    const d = await limiter.consume('k', policy);
    assert.equal(d.allowed, true);
    assert.equal(d.limit, 5);
    remaining.push(d.remaining);
  }
  assert.deepEqual(remaining, [4, 3, 2, 1, 0]);
  const refused = await limiter.consume('k', policy);
  assert.equal(refused.allowed, false);
  assert.equal(refused.retryAfterSeconds, 1);
  assert.equal(refused.resetSeconds, 1);
});

test('when time passes, then the bucket refills at PerSec (one token per interval)', async () => {
  const limiter = createMemoryRateLimiter();
  const policy = { perSec: 50, maxBurst: 1, maxKeys: 100 };
  assert.equal((await limiter.consume('k', policy)).allowed, true);
  assert.equal((await limiter.consume('k', policy)).allowed, true);
  assert.equal((await limiter.consume('k', policy)).allowed, false);
  await sleep(30);
  assert.equal((await limiter.consume('k', policy)).allowed, true);
  assert.equal((await limiter.consume('k', policy)).allowed, false);
});

test('when many requests of one key arrive at once, then exactly MaxBurst+1 pass', async () => {
  const limiter = createMemoryRateLimiter();
  const policy = { perSec: 1, maxBurst: 9, maxKeys: 100 };
  const decisions = await Promise.all(Array.from({ length: 30 }, () => limiter.consume('k', policy)));
  assert.equal(decisions.filter((d) => d.allowed).length, 10);
});

test('when more keys than MemoryStoreSize are seen, then the oldest key is forgotten (its bucket is full again)', async () => {
  const limiter = createMemoryRateLimiter();
  const policy = { perSec: 1, maxBurst: 0, maxKeys: 2 };
  assert.equal((await limiter.consume('a', policy)).allowed, true);
  assert.equal((await limiter.consume('a', policy)).allowed, false);
  await limiter.consume('b', policy);
  await limiter.consume('c', policy);
  assert.equal((await limiter.consume('a', policy)).allowed, true);
});

test('when the policy changes, then buckets start full', async () => {
  const limiter = createMemoryRateLimiter();
  assert.equal((await limiter.consume('a', { perSec: 1, maxBurst: 0, maxKeys: 10 })).allowed, true);
  assert.equal((await limiter.consume('a', { perSec: 1, maxBurst: 0, maxKeys: 10 })).allowed, false);
  assert.equal((await limiter.consume('a', { perSec: 2, maxBurst: 0, maxKeys: 10 })).allowed, true);
});

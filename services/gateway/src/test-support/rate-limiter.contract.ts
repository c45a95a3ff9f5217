import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RateLimiter } from '../domain/ports';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The behaviour every RateLimiter adapter promises (throttled's GCRA); run it against each adapter. */
export function rateLimiterContract(name: string, make: () => Promise<RateLimiter>): void {
  const withLimiter = (run: (limiter: RateLimiter) => Promise<void>) => async () => {
    const limiter = await make();
    try {
      await run(limiter);
    } finally {
      await limiter.close();
    }
  };

  test(
    `${name}: when a fresh key bursts, then MaxBurst+1 requests pass and the next is refused`,
    withLimiter(async (limiter) => {
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
    }),
  );

  test(
    `${name}: when time passes, then the bucket refills at PerSec (one token per interval)`,
    withLimiter(async (limiter) => {
      // 5/s: one token every 200 ms, so both checks have about 200 ms of margin on a loaded machine.
      const policy = { perSec: 5, maxBurst: 0, maxKeys: 100 };
      assert.equal((await limiter.consume('k', policy)).allowed, true);
      assert.equal((await limiter.consume('k', policy)).allowed, false);
      await sleep(260);
      assert.equal((await limiter.consume('k', policy)).allowed, true);
      assert.equal((await limiter.consume('k', policy)).allowed, false);
    }),
  );

  test(
    `${name}: when many requests of one key arrive at once, then exactly MaxBurst+1 pass`,
    withLimiter(async (limiter) => {
      const policy = { perSec: 1, maxBurst: 9, maxKeys: 100 };
      const decisions = await Promise.all(Array.from({ length: 30 }, () => limiter.consume('k', policy)));
      assert.equal(decisions.filter((d) => d.allowed).length, 10);
    }),
  );

  test(
    `${name}: when keys differ, then each has its own bucket`,
    withLimiter(async (limiter) => {
      const policy = { perSec: 1, maxBurst: 0, maxKeys: 100 };
      assert.equal((await limiter.consume('a', policy)).allowed, true);
      assert.equal((await limiter.consume('a', policy)).allowed, false);
      assert.equal((await limiter.consume('b', policy)).allowed, true);
      assert.equal(await limiter.health(), true);
    }),
  );

  test(
    `${name}: when the policy changes, then buckets start full`,
    withLimiter(async (limiter) => {
      assert.equal((await limiter.consume('a', { perSec: 1, maxBurst: 0, maxKeys: 10 })).allowed, true);
      assert.equal((await limiter.consume('a', { perSec: 1, maxBurst: 0, maxKeys: 10 })).allowed, false);
      assert.equal((await limiter.consume('a', { perSec: 2, maxBurst: 0, maxKeys: 10 })).allowed, true);
    }),
  );
}

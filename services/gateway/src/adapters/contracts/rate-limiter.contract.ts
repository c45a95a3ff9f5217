import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RateLimiter } from '../../domain/ports';

/**
 * A limiter under test and a way to move its clock: the memory adapter runs on node's mock timers; the
 * Redis adapter moves every bucket of its prefix `ms` into the past (its TAT and its PTTL), which is all
 * that time means to GCRA. No test sleeps on the wall clock: the real time a slow machine adds between two
 * calls stays far below the one-second emission intervals used here.
 */
export interface RateLimiterSubject {
  readonly limiter: RateLimiter;
  advance(ms: number): Promise<void>;
}

/** The behaviour every RateLimiter adapter promises (throttled's GCRA); run it against each adapter. */
export function rateLimiterContract(name: string, make: () => Promise<RateLimiterSubject>): void {
  const withLimiter = (run: (subject: RateLimiterSubject) => Promise<void>) => async () => {
    const subject = await make();
    try {
      await run(subject);
    } finally {
      await subject.limiter.close();
    }
  };

  test(
    `${name}: when a fresh key bursts, then MaxBurst+1 requests pass and the next is refused`,
    withLimiter(async ({ limiter }) => {
      const policy = { perSec: 1, maxBurst: 4, maxKeys: 100 };
      const remaining: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const d = await limiter.consume('k', policy);
        assert.equal(d.allowed, true);
        assert.equal(d.limit, 5);
        assert.equal(d.retryAfterSeconds, 0);
        remaining.push(d.remaining);
      }
      assert.deepEqual(remaining, [4, 3, 2, 1, 0]);
      const refused = await limiter.consume('k', policy);
      assert.equal(refused.allowed, false);
      assert.equal(refused.limit, 5);
      assert.equal(refused.remaining, 0);
      assert.equal(refused.retryAfterSeconds, 1);
      assert.equal(refused.resetSeconds, 5);
    }),
  );

  test(
    `${name}: when time passes, then the bucket refills at PerSec (one token per interval, not before)`,
    withLimiter(async ({ limiter, advance }) => {
      const policy = { perSec: 1, maxBurst: 0, maxKeys: 100 };
      assert.equal((await limiter.consume('k', policy)).allowed, true);
      assert.equal((await limiter.consume('k', policy)).allowed, false);
      await advance(500);
      assert.equal((await limiter.consume('k', policy)).allowed, false, 'half an interval later the bucket is still empty');
      await advance(600);
      const refilled = await limiter.consume('k', policy);
      assert.equal(refilled.allowed, true, 'one interval later one token is back');
      assert.equal((await limiter.consume('k', policy)).allowed, false, 'and only one');
    }),
  );

  test(
    `${name}: when a key rests long enough, then its whole burst is back and no more`,
    withLimiter(async ({ limiter, advance }) => {
      const policy = { perSec: 1, maxBurst: 2, maxKeys: 100 };
      for (let i = 0; i < 3; i += 1) assert.equal((await limiter.consume('k', policy)).allowed, true);
      assert.equal((await limiter.consume('k', policy)).allowed, false);
      await advance(60_000);
      const again = [];
      for (let i = 0; i < 4; i += 1) again.push((await limiter.consume('k', policy)).allowed);
      assert.deepEqual(again, [true, true, true, false]);
    }),
  );

  test(
    `${name}: when many requests of one key arrive at once, then exactly MaxBurst+1 pass`,
    withLimiter(async ({ limiter }) => {
      const policy = { perSec: 1, maxBurst: 9, maxKeys: 100 };
      const decisions = await Promise.all(Array.from({ length: 30 }, () => limiter.consume('k', policy)));
      assert.equal(decisions.filter((d) => d.allowed).length, 10);
    }),
  );

  test(
    `${name}: when keys differ, then each has its own bucket`,
    withLimiter(async ({ limiter }) => {
      const policy = { perSec: 1, maxBurst: 0, maxKeys: 100 };
      assert.equal((await limiter.consume('a', policy)).allowed, true);
      assert.equal((await limiter.consume('a', policy)).allowed, false);
      assert.equal((await limiter.consume('b', policy)).allowed, true);
      assert.equal(await limiter.health(), true);
    }),
  );

  test(
    `${name}: when the policy changes, then buckets start full`,
    withLimiter(async ({ limiter }) => {
      assert.equal((await limiter.consume('a', { perSec: 1, maxBurst: 0, maxKeys: 10 })).allowed, true);
      assert.equal((await limiter.consume('a', { perSec: 1, maxBurst: 0, maxKeys: 10 })).allowed, false);
      assert.equal((await limiter.consume('a', { perSec: 2, maxBurst: 0, maxKeys: 10 })).allowed, true);
    }),
  );
}

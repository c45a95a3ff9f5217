import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { FlexibleHookRateLimiter } from './flexible-hook-rate-limiter';

const url = process.env.REDIS_URL;

describe('per-hook rate limiter on Redis', { skip: !url && 'REDIS_URL not set: run deploy/local/up.sh' }, () => {
  let redis: Redis | undefined;
  before(() => {
    redis = new Redis(url ?? '', { lazyConnect: false, maxRetriesPerRequest: 1 });
  });
  after(async () => {
    await redis?.quit();
  });

  it('when two limiters (two replicas) share Redis, then the hook\'s budget is shared and the excess is refused with Retry-After', async () => {
    const a = new FlexibleHookRateLimiter(redis);
    const b = new FlexibleHookRateLimiter(redis);
    const hook = `it-${randomBytes(6).toString('hex')}`;
    const results = [];
    for (let i = 0; i < 6; i += 1) results.push(await (i % 2 === 0 ? a : b).consume(hook, 2, 2));
    assert.deepEqual(results.slice(0, 4).map((r) => r.allowed), [true, true, true, true]);
    assert.ok(results.slice(4).some((r) => !r.allowed));
    const refused = results.find((r) => !r.allowed);
    assert.ok((refused?.retryAfterSeconds ?? 0) >= 1);
    assert.equal((await a.consume(`${hook}-other`, 2, 2)).allowed, true);
  });
});

import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { ResolvedSession } from '@switchyard/contracts';
import { rateLimiterContract } from '../../test-support/rate-limiter.contract';
import { tokenCacheContract } from '../../test-support/token-cache.contract';
import { RedisRateLimiter, RedisTokenCache } from './index';

const url = process.env.REDIS_URL;

describe('gateway Redis adapters', { skip: !url && 'REDIS_URL not set: run deploy/local/up.sh' }, () => {
  // Every adapter instance gets its own key prefix, so runs and tests never share keys.
  const runPrefix = `gw_it_${randomBytes(4).toString('hex')}:`;
  const clients: Redis[] = [];
  const client = (): Redis => {
    const redis = new Redis(url ?? '', { maxRetriesPerRequest: 1 });
    clients.push(redis);
    return redis;
  };
  const prefix = (): string => `${runPrefix}${randomBytes(4).toString('hex')}:`;

  after(async () => {
    const redis = client();
    const keys = await redis.keys(`${runPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await Promise.all(clients.map((c) => c.quit()));
  });

  tokenCacheContract('RedisTokenCache', async () => new RedisTokenCache({ redis: client(), keyPrefix: prefix() }));
  rateLimiterContract('RedisRateLimiter', async () => new RedisRateLimiter({ redis: client(), keyPrefix: prefix() }));

  test('when two gateways share Redis, then a user evicted by one is gone for the other', async () => {
    const keyPrefix = prefix();
    const a = new RedisTokenCache({ redis: client(), keyPrefix });
    const b = new RedisTokenCache({ redis: client(), keyPrefix });
    const session: ResolvedSession = { userId: 'u1', sessionId: 's1', roles: 'system_user', isBot: false, sessionType: 'session', csrfToken: 'c', expiresAt: 0 };
    await a.set('h1', session, 10_000);
    assert.deepEqual(await b.get('h1'), session);
    await b.evictUser('u1');
    assert.equal(await a.get('h1'), undefined);
  });

  test('when two gateways share Redis, then their requests draw on one bucket', async () => {
    const keyPrefix = prefix();
    const a = new RedisRateLimiter({ redis: client(), keyPrefix });
    const b = new RedisRateLimiter({ redis: client(), keyPrefix });
    const policy = { perSec: 1, maxBurst: 5, maxKeys: 10 };
    const decisions = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).consume('ip', policy)));
    assert.equal(decisions.filter((d) => d.allowed).length, 6);
  });
});

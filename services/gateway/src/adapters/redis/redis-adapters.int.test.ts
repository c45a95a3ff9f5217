import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { ResolvedSession } from '@switchyard/contracts';
import { rateLimiterContract } from '../contracts/rate-limiter.contract';
import { tokenCacheContract } from '../contracts/token-cache.contract';
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

  /** Time passing, as Redis sees it: every key of the prefix `ms` closer to expiry (gone at zero). */
  const expireSooner = async (redis: Redis, keyPrefix: string, ms: number): Promise<void> => {
    for (const key of await redis.keys(`${keyPrefix}*`)) {
      const left = await redis.pttl(key);
      if (left < 0) continue;
      if (left <= ms) await redis.del(key);
      else await redis.pexpire(key, left - ms);
    }
  };

  tokenCacheContract('RedisTokenCache', async () => {
    const redis = client();
    const keyPrefix = prefix();
    return { cache: new RedisTokenCache({ redis, keyPrefix }), advance: (ms) => expireSooner(redis, keyPrefix, ms) };
  });

  rateLimiterContract('RedisRateLimiter', async () => {
    const redis = client();
    const keyPrefix = prefix();
    return {
      limiter: new RedisRateLimiter({ redis, keyPrefix }),
      // A bucket is its theoretical arrival time (ms on Redis' clock) kept until that time: both move back.
      advance: async (ms) => {
        for (const key of await redis.keys(`${keyPrefix}*`)) {
          const tat = Number(await redis.get(key));
          const left = await redis.pttl(key);
          if (left <= ms) await redis.del(key);
          else await redis.set(key, String(tat - ms), 'PX', left - ms);
        }
      },
    };
  });

  test('when a session is cached on Redis, then its key lives exactly the ttl asked for (PTTL)', async () => {
    const redis = client();
    const keyPrefix = prefix();
    const cache = new RedisTokenCache({ redis, keyPrefix });
    const session: ResolvedSession = { userId: 'u1', sessionId: 's1', roles: 'system_user', isBot: false, sessionType: 'session', csrfToken: 'c', expiresAt: 0 };
    await cache.set('h1', session, 90_000);
    const left = await redis.pttl(`${keyPrefix}tc:h1`);
    assert.ok(left > 80_000 && left <= 90_000, `PTTL ${left}`);
  });

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

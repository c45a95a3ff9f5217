import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResolvedSession } from '@switchyard/contracts';
import type { TokenCache } from '../../domain/ports';

const sessionOf = (userId: string, sessionId: string): ResolvedSession => ({
  userId,
  sessionId,
  roles: 'system_user',
  isBot: false,
  sessionType: 'session',
  csrfToken: 'c',
  expiresAt: 0,
});

/**
 * A cache under test and a way to move its clock: a memory adapter takes an injected clock; a Redis adapter
 * moves every key of its prefix `ms` closer to expiry (PTTL - ms), which is all that time means to it.
 * Either way no test sleeps on the wall clock, so a slow machine cannot flip a result.
 */
export interface TokenCacheSubject {
  readonly cache: TokenCache;
  advance(ms: number): Promise<void>;
}

/** The behaviour every TokenCache adapter promises; run it against each adapter. */
export function tokenCacheContract(name: string, make: () => Promise<TokenCacheSubject>): void {
  test(`${name}: when a session is set, then it is returned until its ttl passes, and not after`, async () => {
    const { cache, advance } = await make();
    try {
      await cache.set('k1', sessionOf('u1', 's1'), 60_000);
      await cache.set('k2', sessionOf('u1', 's2'), 120_000);
      assert.deepEqual(await cache.get('k1'), sessionOf('u1', 's1'));
      assert.equal(await cache.get('other'), undefined);
      await advance(50_000);
      assert.deepEqual(await cache.get('k1'), sessionOf('u1', 's1'), 'still cached 10 s before its ttl');
      await advance(10_000);
      assert.equal(await cache.get('k1'), undefined, 'gone once its ttl has passed');
      assert.deepEqual(await cache.get('k2'), sessionOf('u1', 's2'), 'a longer ttl is kept');
      await advance(60_000);
      assert.equal(await cache.get('k2'), undefined);
    } finally {
      await cache.close();
    }
  });

  test(`${name}: when the ttl is zero or negative, then nothing is cached`, async () => {
    const { cache } = await make();
    try {
      await cache.set('z', sessionOf('u1', 's1'), 0);
      await cache.set('n', sessionOf('u1', 's1'), -5);
      assert.equal(await cache.get('z'), undefined);
      assert.equal(await cache.get('n'), undefined);
    } finally {
      await cache.close();
    }
  });

  test(`${name}: when a user is evicted, then every entry of that user goes and only those`, async () => {
    const { cache } = await make();
    try {
      await cache.set('a1', sessionOf('ua', 's1'), 10_000);
      await cache.set('a2', sessionOf('ua', 's2'), 10_000);
      await cache.set('b1', sessionOf('ub', 's3'), 10_000);
      await cache.evictUser('ua');
      assert.equal(await cache.get('a1'), undefined);
      assert.equal(await cache.get('a2'), undefined);
      assert.equal((await cache.get('b1'))?.userId, 'ub');
      await cache.evictUser('nobody');
      assert.equal((await cache.get('b1'))?.userId, 'ub');
    } finally {
      await cache.close();
    }
  });

  test(`${name}: when a user's short entry expired, then evicting the user still removes their longer one`, async () => {
    const { cache, advance } = await make();
    try {
      await cache.set('short', sessionOf('ua', 's2'), 10_000);
      await cache.set('long', sessionOf('ua', 's1'), 120_000);
      await advance(30_000);
      assert.equal((await cache.get('long'))?.sessionId, 's1');
      await cache.evictUser('ua');
      assert.equal(await cache.get('long'), undefined);
    } finally {
      await cache.close();
    }
  });

  test(`${name}: when a key is set again for another user, then evicting the old user leaves it`, async () => {
    const { cache } = await make();
    try {
      await cache.set('k', sessionOf('old', 's1'), 10_000);
      await cache.set('k', sessionOf('new', 's2'), 10_000);
      await cache.evictUser('old');
      assert.equal((await cache.get('k'))?.userId, 'new');
      assert.equal(await cache.health(), true);
    } finally {
      await cache.close();
    }
  });
}

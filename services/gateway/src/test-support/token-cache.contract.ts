import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResolvedSession } from '@switchyard/contracts';
import type { TokenCache } from '../domain/ports';

const sessionOf = (userId: string, sessionId: string): ResolvedSession => ({
  userId,
  sessionId,
  roles: 'system_user',
  isBot: false,
  sessionType: 'session',
  csrfToken: 'c',
  expiresAt: 0,
});

/** The behaviour every TokenCache adapter promises; run it against each adapter. */
export function tokenCacheContract(name: string, make: () => Promise<TokenCache>): void {
  test(`${name}: when a session is set, then it is returned until its ttl passes`, async () => {
    const cache = await make();
    try {
      await cache.set('k1', sessionOf('u1', 's1'), 60);
      assert.deepEqual(await cache.get('k1'), sessionOf('u1', 's1'));
      assert.equal(await cache.get('other'), undefined);
      await new Promise((r) => setTimeout(r, 80));
      assert.equal(await cache.get('k1'), undefined);
    } finally {
      await cache.close();
    }
  });

  test(`${name}: when a user is evicted, then every entry of that user goes and only those`, async () => {
    const cache = await make();
    try {
      await cache.set('a1', sessionOf('ua', 's1'), 10_000);
      await cache.set('a2', sessionOf('ua', 's2'), 10_000);
      await cache.set('b1', sessionOf('ub', 's3'), 10_000);
      await cache.evictUser('ua');
      assert.equal(await cache.get('a1'), undefined);
      assert.equal(await cache.get('a2'), undefined);
      assert.equal((await cache.get('b1'))?.userId, 'ub');
      await cache.evictUser('nobody');
    } finally {
      await cache.close();
    }
  });

  test(`${name}: when a key is set again for another user, then evicting the old user leaves it`, async () => {
    const cache = await make();
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

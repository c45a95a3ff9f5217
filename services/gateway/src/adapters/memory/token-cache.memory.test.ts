import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResolvedSession } from '@switchyard/contracts';
import { tokenCacheContract } from '../contracts/token-cache.contract';
import { MemoryTokenCache } from './token-cache.memory';

tokenCacheContract('MemoryTokenCache', async () => {
  let now = 1_700_000_000_000;
  return {
    cache: new MemoryTokenCache({ maxEntries: 100, now: () => now }),
    advance: async (ms) => {
      now += ms;
    },
  };
});

test('when the memory cache is full, then the least recently used entry goes first', async () => {
  const cache = new MemoryTokenCache({ maxEntries: 2 });
  const s = (userId: string): ResolvedSession => ({ userId, sessionId: 's', roles: '', isBot: false, sessionType: 'session', csrfToken: '', expiresAt: 0 });
  await cache.set('a', s('ua'), 10_000);
  await cache.set('b', s('ub'), 10_000);
  await cache.get('a');
  await cache.set('c', s('uc'), 10_000);
  assert.equal(cache.size, 2);
  assert.equal(await cache.get('b'), undefined);
  assert.equal((await cache.get('a'))?.userId, 'ua');
  assert.equal((await cache.get('c'))?.userId, 'uc');
});

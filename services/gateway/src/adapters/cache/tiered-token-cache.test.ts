import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResolvedSession } from '@switchyard/contracts';
import type { TokenCache } from '../../domain/ports';
import { tokenCacheContract } from '../contracts/token-cache.contract';
import { MemoryTokenCache } from '../memory/token-cache.memory';
import { TieredTokenCache } from './tiered-token-cache';

tokenCacheContract('TieredTokenCache over a shared cache', async () => {
  let now = 1_700_000_000_000;
  const shared = new MemoryTokenCache({ maxEntries: 100, now: () => now });
  return {
    cache: new TieredTokenCache({ shared, localTtlMs: 1_000, maxEntries: 100, now: () => now }),
    advance: async (ms) => {
      now += ms;
    },
  };
});

const session = (userId: string, expiresAt = 0): ResolvedSession => ({ userId, sessionId: 's', roles: 'system_user', isBot: false, sessionType: 'session', csrfToken: '', expiresAt });

/** A shared cache that counts reads and can hold a read until released. */
class CountingShared extends MemoryTokenCache {
  public reads = 0;
  public hold: Promise<void> | undefined;

  public override async get(tokenHash: string): Promise<ResolvedSession | undefined> {
    this.reads += 1;
    const value = await super.get(tokenHash);
    if (this.hold) await this.hold;
    return value;
  }
}

function setup(): { shared: CountingShared; cache: TieredTokenCache; advance(ms: number): void; other: TieredTokenCache } {
  let now = 1_700_000_000_000;
  const shared = new CountingShared({ maxEntries: 100, now: () => now });
  const cache = new TieredTokenCache({ shared, localTtlMs: 1_000, maxEntries: 100, now: () => now });
  const other = new TieredTokenCache({ shared, localTtlMs: 1_000, maxEntries: 100, now: () => now });
  return { shared, cache, other, advance: (ms) => void (now += ms) };
}

test('when a session was read once, then later reads within the local TTL do not reach the shared cache, and after it they do', async () => {
  const { shared, cache, advance } = setup();
  await shared.set('h', session('u1'), 30_000);
  assert.equal((await cache.get('h'))?.userId, 'u1');
  assert.equal((await cache.get('h'))?.userId, 'u1');
  assert.equal(shared.reads, 1);
  advance(1_001);
  assert.equal((await cache.get('h'))?.userId, 'u1');
  assert.equal(shared.reads, 2);
});

test('when another replica evicts a user in the shared cache only, then this replica stops accepting the session after the local TTL at most', async () => {
  const { shared, cache, other, advance } = setup();
  await other.set('h', session('u1'), 30_000);
  assert.equal((await cache.get('h'))?.userId, 'u1');
  await shared.evictUser('u1');
  advance(1_001);
  assert.equal(await cache.get('h'), undefined);
});

test('when a user is evicted, then both layers forget the session at once', async () => {
  const { shared, cache } = setup();
  await cache.set('h', session('u1'), 30_000);
  await cache.evictUser('u1');
  assert.equal(await cache.get('h'), undefined);
  assert.equal(await shared.get('h'), undefined);
  assert.equal(cache.localSize, 0);
});

test('when an eviction runs while a shared read is on its way, then the read is answered but not kept locally', async () => {
  const { shared, cache } = setup();
  await shared.set('h', session('u1'), 30_000);
  let release: () => void = () => undefined;
  shared.hold = new Promise((resolve) => {
    release = resolve;
  });
  const reading = cache.get('h');
  await new Promise((resolve) => setImmediate(resolve));
  await cache.evictUser('u1');
  release();
  shared.hold = undefined;
  assert.equal((await reading)?.userId, 'u1');
  assert.equal(cache.localSize, 0);
  assert.equal(await cache.get('h'), undefined);
});

test('when a session expires before the local TTL, then the local entry expires with it (the next read goes to the shared cache)', async () => {
  const { shared, cache, advance } = setup();
  const start = 1_700_000_000_000;
  await cache.set('h', session('u1', start + 300), 30_000);
  await cache.get('h');
  assert.equal(shared.reads, 0);
  advance(301);
  await cache.get('h');
  assert.equal(shared.reads, 1);
});

test('health and close are the shared cache\'s', async () => {
  let closed = false;
  const shared: TokenCache = { get: async () => undefined, set: async () => undefined, evictUser: async () => undefined, health: async () => false, close: async () => void (closed = true) };
  const cache = new TieredTokenCache({ shared, localTtlMs: 1_000, maxEntries: 10 });
  assert.equal(await cache.health(), false);
  await cache.close();
  assert.equal(closed, true);
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ReadThroughCache } from './read-through-cache';

function world(ttlMs = 1_000, maxEntries?: number) {
  let now = 0;
  const loads: string[] = [];
  const cache = new ReadThroughCache<string>({ ttlMs, maxEntries, now: () => now });
  const read = (key: string, value: string | null = `v-${key}`, keep?: (v: string) => boolean) =>
    cache.get(key, async () => { loads.push(key); return value ?? undefined; }, keep);
  return { cache, loads, read, advance: (ms: number) => { now += ms; } };
}

describe('ReadThroughCache', () => {
  it('when a key is read twice within the TTL, then the store is read once; after the TTL, again', async () => {
    const { loads, read, advance } = world();
    assert.equal(await read('a'), 'v-a');
    advance(999);
    assert.equal(await read('a'), 'v-a');
    assert.deepEqual(loads, ['a']);
    advance(1);
    await read('a');
    assert.deepEqual(loads, ['a', 'a']);
  });

  it('when a value is undefined, refused by keep, or the TTL is 0, then it is not cached', async () => {
    const { loads, read } = world();
    await read('missing', null);
    await read('missing', null);
    await read('dead', 'deleted', (v) => v !== 'deleted');
    await read('dead', 'deleted', (v) => v !== 'deleted');
    assert.deepEqual(loads, ['missing', 'missing', 'dead', 'dead']);
    const off = world(0);
    await off.read('a');
    await off.read('a');
    assert.deepEqual(off.loads, ['a', 'a']);
  });

  it('when a key is evicted, then the next read goes to the store', async () => {
    const { cache, loads, read } = world();
    await read('a');
    cache.evict('a');
    await read('a');
    assert.deepEqual(loads, ['a', 'a']);
  });

  it('when an eviction happens while a read is loading, then that read is returned but not cached', async () => {
    const { cache } = world();
    let release: (v: string) => void = () => undefined;
    const slow = cache.get('a', () => new Promise<string>((resolve) => { release = resolve; }));
    cache.evict('a');
    release('old');
    assert.equal(await slow, 'old');
    let loaded = 0;
    assert.equal(await cache.get('a', async () => { loaded += 1; return 'new'; }), 'new');
    assert.equal(loaded, 1, 'the stale read was not cached');
  });

  it('when more keys are read than maxEntries, then the oldest goes and the bound holds', async () => {
    const { cache, loads, read } = world(1_000, 2);
    await read('a');
    await read('b');
    await read('c');
    assert.equal(cache.size, 2);
    await read('b');
    await read('a');
    assert.deepEqual(loads, ['a', 'b', 'c', 'a']);
  });
});

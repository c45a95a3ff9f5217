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
  it('when a key misses several times while its load runs, then the store is read once and every read gets its value', async () => {
    const { cache } = world();
    let loads = 0;
    let release: (v: string) => void = () => undefined;
    const load = () => { loads += 1; return new Promise<string>((resolve) => { release = resolve; }); };
    const reads = [cache.get('a', load), cache.get('a', load), cache.get('a', load)];
    release('v');
    assert.deepEqual(await Promise.all(reads), ['v', 'v', 'v']);
    assert.equal(loads, 1);
  });

  it('when a read misses after an eviction, then it does not join the load that started before it', async () => {
    const { cache } = world();
    const released: ((v: string) => void)[] = [];
    const load = () => new Promise<string>((resolve) => { released.push(resolve); });
    const before = cache.get('a', load);
    cache.evict('a');
    const after = cache.get('a', load);
    assert.equal(released.length, 2, 'the read after the eviction loads on its own');
    released[0]?.('old');
    released[1]?.('new');
    assert.equal(await before, 'old');
    assert.equal(await after, 'new');
    assert.equal(await cache.get('a', async () => 'unused'), 'new', 'the later load is the one cached');
  });

  it('when a shared load fails, then every read waiting for it fails and the next read loads again', async () => {
    const { cache } = world();
    let fail: (e: Error) => void = () => undefined;
    const reads = [0, 1].map(() => cache.get('a', () => new Promise<string>((_, reject) => { fail = reject; })));
    fail(new Error('store down'));
    for (const read of reads) await assert.rejects(read, /store down/);
    assert.equal(await cache.get('a', async () => 'back'), 'back');
  });

  it('when the TTL is 0, then concurrent reads are not shared either', async () => {
    const { cache, loads, read } = world(0);
    await Promise.all([read('a'), read('a')]);
    assert.deepEqual(loads, ['a', 'a']);
    assert.equal(cache.size, 0);
  });
  it('when a key is peeked, then the cached value is given within the TTL and nothing is loaded', async () => {
    const { cache, loads, read, advance } = world();
    assert.equal(cache.peek('a'), undefined);
    await read('a');
    assert.equal(cache.peek('a'), 'v-a');
    advance(1_000);
    assert.equal(cache.peek('a'), undefined);
    assert.deepEqual(loads, ['a']);
  });
});

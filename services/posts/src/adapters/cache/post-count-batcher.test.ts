import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PostCounts } from '../../domain/ports';
import { PostCountBatcher } from './post-count-batcher';

/** A counter store whose writes wait until released, recording what each write carried. */
function gatedStore() {
  const writes: { channelId: string; counts: PostCounts }[] = [];
  const gates: { open(): void; fail(error: Error): void }[] = [];
  const write = (channelId: string, counts: PostCounts): Promise<void> => {
    writes.push({ channelId, counts });
    return new Promise<void>((resolve, reject) => gates.push({ open: resolve, fail: reject }));
  };
  return { writes, gates, write };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('PostCountBatcher', () => {
  it('when posts of a channel are counted while its write runs, then they go out together in the next write, each caller settled by its own write', async () => {
    const store = gatedStore();
    const batcher = new PostCountBatcher(store.write);
    const settled: string[] = [];
    const first = batcher.add('c1', 10, true).then(() => settled.push('first'));
    assert.equal(store.writes.length, 1, 'a lone post is written at once');
    const rest = [batcher.add('c1', 30, false), batcher.add('c1', 20, true), batcher.add('c1', 25, false)].map((p, i) => p.then(() => settled.push(`rest${i}`)));
    const other = batcher.add('c2', 5, false);
    assert.equal(store.writes.length, 2, 'another channel does not wait');
    store.gates[0]?.open();
    await first;
    await tick();
    assert.deepEqual(settled, ['first']);
    assert.equal(store.writes.length, 3);
    assert.deepEqual(store.writes[2], { channelId: 'c1', counts: { posts: 3, roots: 1, lastPostAt: 30, lastRootPostAt: 20 } });
    store.gates[2]?.open();
    store.gates[1]?.open();
    await Promise.all([...rest, other]);
    assert.equal(store.writes.length, 3);
  });

  it('when several posts of a channel are counted at once while its write runs, then they join the next write with single posts (root times only from root posts)', async () => {
    const store = gatedStore();
    const batcher = new PostCountBatcher(store.write);
    const first = batcher.addCounts('c1', { posts: 3, roots: 2, lastPostAt: 30, lastRootPostAt: 20 });
    assert.deepEqual(store.writes[0]?.counts, { posts: 3, roots: 2, lastPostAt: 30, lastRootPostAt: 20 });
    const replies = batcher.addCounts('c1', { posts: 2, roots: 0, lastPostAt: 40, lastRootPostAt: 99 });
    const single = batcher.add('c1', 35, true);
    const more = batcher.addCounts('c1', { posts: 4, roots: 1, lastPostAt: 38, lastRootPostAt: 33 });
    store.gates[0]?.open();
    await first;
    assert.deepEqual(store.writes[1], { channelId: 'c1', counts: { posts: 7, roots: 2, lastPostAt: 40, lastRootPostAt: 35 } });
    store.gates[1]?.open();
    await Promise.all([replies, single, more]);
    assert.equal(store.writes.length, 2);
  });

  it('when writes are running or waiting, then idle resolves only once the last of them is stored', async () => {
    const store = gatedStore();
    const batcher = new PostCountBatcher(store.write);
    void batcher.add('c1', 1, true);
    void batcher.add('c1', 2, false);
    let idle = false;
    const waiting = batcher.idle().then(() => (idle = true));
    store.gates[0]?.open();
    await tick();
    assert.equal(idle, false, 'the second write still runs');
    store.gates[1]?.open();
    await waiting;
    assert.equal(store.writes.length, 2);
  });

  it('when a write fails, then exactly the callers it carried get the error and the next posts are written again', async () => {
    const store = gatedStore();
    const batcher = new PostCountBatcher(store.write);
    const first = batcher.add('c1', 1, true);
    const second = batcher.add('c1', 2, true);
    store.gates[0]?.fail(new Error('store down'));
    await assert.rejects(first, /store down/);
    await tick();
    store.gates[1]?.open();
    await second;
    const third = batcher.add('c1', 3, false);
    store.gates[2]?.open();
    await third;
    assert.deepEqual(store.writes.map((w) => w.counts.posts), [1, 1, 1]);
  });
});

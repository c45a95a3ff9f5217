import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { WriteBatcher } from './write-batcher';

/** A store write that resolves when told to, recording each batch it was given. */
function controlledWrite(): { batches: number[][]; release(): void; write: (items: readonly number[]) => Promise<readonly string[]> } {
  const batches: number[][] = [];
  const pending: (() => void)[] = [];
  return {
    batches,
    release: () => pending.shift()?.(),
    write: (items) => {
      batches.push([...items]);
      if (items.includes(13)) return Promise.reject(new Error('unlucky batch'));
      return new Promise((resolve) => pending.push(() => resolve(items.map((n) => `r${n}`))));
    },
  };
}

describe('WriteBatcher', () => {
  it('when a write is alone, then it goes at once; writes made while it is in flight go together next, each with its own result', async () => {
    const store = controlledWrite();
    const batcher = new WriteBatcher(store.write);
    const first = batcher.submit(1);
    assert.deepEqual(store.batches, [[1]], 'sent at once, no timer');
    const later = [batcher.submit(2), batcher.submit(3), batcher.submit(4)];
    assert.deepEqual(store.batches, [[1]], 'held while the first is in flight');
    store.release();
    assert.equal(await first, 'r1');
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(store.batches, [[1], [2, 3, 4]]);
    store.release();
    assert.deepEqual(await Promise.all(later), ['r2', 'r3', 'r4']);
  });

  it('when a batch fails, then each of its writes rejects, and later writes still go', async () => {
    const store = controlledWrite();
    const batcher = new WriteBatcher(store.write, 2);
    const first = batcher.submit(1);
    const failing = [batcher.submit(12), batcher.submit(13)];
    const after = batcher.submit(5);
    store.release();
    await first;
    for (const f of failing) await assert.rejects(f, /unlucky batch/);
    await new Promise((resolve) => setImmediate(resolve));
    store.release();
    assert.equal(await after, 'r5');
    assert.deepEqual(store.batches, [[1], [12, 13], [5]], 'at most maxBatch per batch');
  });
});

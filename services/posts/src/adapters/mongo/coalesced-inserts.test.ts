import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InsertManyResult } from '../../domain/ports';
import { CoalescedInserts } from './coalesced-inserts';

/** A store whose writes finish when the test says so; it records what each write carried. */
function heldStore() {
  const writes: { items: readonly string[]; finish(result?: InsertManyResult): void; fail(error: Error): void }[] = [];
  const writeMany = (items: readonly string[]): Promise<InsertManyResult> =>
    new Promise((resolve, reject) => {
      writes.push({ items: [...items], finish: (result = { duplicates: [] }) => resolve(result), fail: reject });
    });
  return { writes, writeMany };
}

const settled = async (promise: Promise<void>): Promise<string> =>
  Promise.race([promise.then(() => 'stored', (error: Error) => error.message), new Promise<string>((resolve) => setImmediate(() => resolve('pending')))]);

describe('CoalescedInserts', () => {
  it('when inserts are asked for while a write runs, then they go together in the next write, started as soon as the first finished, and each caller settles with its own write', async () => {
    const store = heldStore();
    const inserts = new CoalescedInserts(store.writeMany, () => new Error('duplicate'));
    const a = inserts.insert('a');
    const b = inserts.insert('b');
    const c = inserts.insert('c');
    assert.deepEqual(store.writes.map((w) => w.items), [['a']], 'a lone insert goes out at once');
    store.writes[0]?.finish();
    assert.equal(await settled(a), 'stored');
    assert.equal(await settled(b), 'pending', 'b waits for its own write');
    assert.deepEqual(store.writes.map((w) => w.items), [['a'], ['b', 'c']]);
    store.writes[1]?.finish();
    assert.deepEqual([await settled(b), await settled(c)], ['stored', 'stored']);
    const d = inserts.insert('d');
    assert.deepEqual(store.writes.map((w) => w.items), [['a'], ['b', 'c'], ['d']], 'nothing in flight: at once again');
    store.writes[2]?.finish();
    assert.equal(await settled(d), 'stored');
  });

  it('when the write reports an item as existing, then only that caller gets the duplicate error', async () => {
    const store = heldStore();
    const inserts = new CoalescedInserts(store.writeMany, () => new Error('duplicate'));
    const first = inserts.insert('x');
    const b = inserts.insert('b');
    const again = inserts.insert('b');
    store.writes[0]?.finish();
    await first;
    store.writes[1]?.finish({ duplicates: [1] });
    assert.deepEqual([await settled(b), await settled(again)], ['stored', 'duplicate']);
  });

  it('when a write fails, then every caller of that write gets its error, and inserts asked for meanwhile still go out in the next write', async () => {
    const store = heldStore();
    const inserts = new CoalescedInserts(store.writeMany, () => new Error('duplicate'));
    const a = inserts.insert('a');
    const b = inserts.insert('b');
    store.writes[0]?.fail(new Error('store down'));
    assert.equal(await settled(a), 'store down');
    assert.deepEqual(store.writes.map((w) => w.items), [['a'], ['b']]);
    store.writes[1]?.finish();
    assert.equal(await settled(b), 'stored');
  });

  it('when the write throws before returning a promise, then its callers get the error and the next inserts are written', async () => {
    let calls = 0;
    const inserts = new CoalescedInserts<string>(() => {
      calls += 1;
      if (calls === 1) throw new Error('synchronous');
      return Promise.resolve({ duplicates: [] });
    }, () => new Error('duplicate'));
    assert.equal(await settled(inserts.insert('a')), 'synchronous');
    assert.equal(await settled(inserts.insert('b')), 'stored');
  });

  it('when more inserts wait than one write takes, then they go out in several writes, in order', async () => {
    const store = heldStore();
    const inserts = new CoalescedInserts(store.writeMany, () => new Error('duplicate'));
    const all = Array.from({ length: 251 }, (_, i) => inserts.insert(`p${i}`));
    store.writes[0]?.finish();
    await all[0];
    assert.equal(store.writes[1]?.items.length, 100);
    store.writes[1]?.finish();
    await all[100];
    assert.equal(store.writes[2]?.items.length, 100);
    store.writes[2]?.finish();
    await all[200];
    assert.deepEqual(store.writes[3]?.items, ['p201', ...Array.from({ length: 49 }, (_, i) => `p${202 + i}`)]);
    store.writes[3]?.finish();
    await Promise.all(all);
    assert.deepEqual(store.writes.flatMap((w) => w.items), Array.from({ length: 251 }, (_, i) => `p${i}`));
  });
});

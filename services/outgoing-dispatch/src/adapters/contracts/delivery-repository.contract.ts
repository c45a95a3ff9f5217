import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import type { DeliveryRepository } from '../../domain/ports';
import { aDelivery } from './fixtures';

/** The behaviour every DeliveryRepository adapter must have. `fresh` gives an empty repository. */
export function deliveryRepositoryContract(name: string, fresh: () => Promise<DeliveryRepository>): void {
  describe(`DeliveryRepository (${name})`, () => {
    it('when a delivery is inserted twice, then the second insert changes nothing and says so', async () => {
      const repo = await fresh();
      const delivery = aDelivery();
      assert.equal(await repo.insertIfAbsent(delivery), true);
      assert.equal(await repo.insertIfAbsent({ ...delivery, body: 'other' }), false);
      assert.deepEqual(await repo.findById(delivery.id), delivery);
    });

    it('when deliveries are inserted together, some already stored, then only the new ones are inserted and named', async () => {
      const repo = await fresh();
      const stored = aDelivery();
      await repo.insertIfAbsent(stored);
      const fresh1 = aDelivery();
      const fresh2 = aDelivery();
      assert.deepEqual([...(await repo.insertAllIfAbsent([fresh1, { ...stored, body: 'other' }, fresh2]))].sort(), [fresh1.id, fresh2.id].sort());
      assert.deepEqual(await repo.findById(stored.id), stored, 'the stored one is left as it was');
      assert.deepEqual(await repo.findById(fresh1.id), fresh1);
      assert.deepEqual(await repo.findById(fresh2.id), fresh2, 'the one after the duplicate is inserted too');
      assert.equal((await repo.insertAllIfAbsent([fresh1, fresh2])).size, 0);
      assert.equal((await repo.insertAllIfAbsent([])).size, 0);
      const fresh3 = aDelivery();
      assert.deepEqual([...(await repo.insertAllIfAbsent([fresh3, fresh1]))], [fresh3.id], 'a duplicate at the end');
    });

    it('when a delivery is stored already claimed (firing), then no scheduler takes it until its lease runs out, and its owner can finish it', async () => {
      const repo = await fresh();
      const mine = aDelivery({ nextAttemptAt: 100, attempts: 0, claimedBy: 'a', claimUntil: 500 });
      await repo.insertAllIfAbsent([mine]);
      assert.deepEqual(await repo.claimDue({ now: 200, owner: 's', leaseUntil: 900 }, 10), [], 'held by its firing instance');
      assert.equal(await repo.claim(mine.id, { now: 499, owner: 's', leaseUntil: 900 }), undefined);
      assert.equal(await repo.finish(mine.id, 's', { status: 'delivered' }), false, 'only the owner finishes it');
      assert.equal((await repo.claimDue({ now: 500, owner: 's', leaseUntil: 900 }, 10)).map((d) => d.claimedBy).join(), 's', 'taken over once the lease ran out');
      assert.equal(await repo.finish(mine.id, 'a', { status: 'delivered' }), false, 'the late owner cannot overwrite');
    });

    it('when many finishes are made at once, some by an owner whose claim moved on, then each says whether it held and only those apply', async () => {
      const repo = await fresh();
      const mine = Array.from({ length: 6 }, () => aDelivery({ claimedBy: 'a', claimUntil: 500 }));
      const taken = Array.from({ length: 3 }, () => aDelivery({ claimedBy: 'b', claimUntil: 500 }));
      await repo.insertAllIfAbsent([...mine, ...taken]);
      const all = [...mine, ...taken].sort(() => Math.random() - 0.5);
      const held = await Promise.all(all.map((d, i) => repo.finish(d.id, 'a', { status: 'delivered', attempts: 1, lastLatencyMs: i, updateAt: 1000 + i })));
      assert.deepEqual(held, all.map((d) => d.claimedBy === 'a'));
      for (const [i, d] of all.entries()) {
        const stored = await repo.findById(d.id);
        if (d.claimedBy === 'a') assert.deepEqual([stored?.status, stored?.lastLatencyMs, stored?.claimedBy], ['delivered', i, '']);
        else assert.deepEqual([stored?.status, stored?.claimedBy], ['pending', 'b'], 'another owner\'s record is left alone');
      }
    });

    it('when several callers insert at once, some records already stored, then each caller learns which of its own were new', async () => {
      const repo = await fresh();
      const stored = aDelivery();
      await repo.insertIfAbsent(stored);
      const groups = [[aDelivery(), stored], [aDelivery()], [stored], [aDelivery(), aDelivery()]];
      const results = await Promise.all(groups.map((g) => repo.insertAllIfAbsent(g)));
      assert.deepEqual(results.map((r) => [...r].sort()), groups.map((g) => g.filter((d) => d !== stored).map((d) => d.id).sort()));
    });

    it('when a due delivery is claimed, then only one claimant wins until the lease runs out', async () => {
      const repo = await fresh();
      const delivery = aDelivery({ nextAttemptAt: 100 });
      await repo.insertIfAbsent(delivery);
      assert.equal(await repo.claim(delivery.id, { now: 99, owner: 'a', leaseUntil: 1000 }), undefined, 'not due yet');
      const results = await Promise.all(['a', 'b', 'c', 'd'].map((owner) => repo.claim(delivery.id, { now: 200, owner, leaseUntil: 1000 })));
      const winners = results.filter((r) => r !== undefined);
      assert.equal(winners.length, 1);
      assert.equal(winners[0]?.claimUntil, 1000);
      assert.equal(await repo.claim(delivery.id, { now: 999, owner: 'x', leaseUntil: 2000 }), undefined);
      const taken = await repo.claim(delivery.id, { now: 1000, owner: 'x', leaseUntil: 2000 });
      assert.equal(taken?.claimedBy, 'x');
    });

    it('when the claimant finishes, then changes apply and the claim is released; a stale owner cannot finish', async () => {
      const repo = await fresh();
      const delivery = aDelivery();
      await repo.insertIfAbsent(delivery);
      await repo.claim(delivery.id, { now: delivery.nextAttemptAt, owner: 'a', leaseUntil: delivery.nextAttemptAt + 10 });
      assert.equal(await repo.finish(delivery.id, 'b', { status: 'dead' }), false);
      assert.equal(await repo.finish(delivery.id, 'a', { status: 'delivered', attempts: 1, lastStatusCode: 200, nextAttemptAt: 0 }), true);
      const stored = await repo.findById(delivery.id);
      assert.equal(stored?.status, 'delivered');
      assert.equal(stored?.attempts, 1);
      assert.equal(stored?.claimedBy, '');
      assert.equal(stored?.claimUntil, 0);
      assert.equal(await repo.claim(delivery.id, { now: Number.MAX_SAFE_INTEGER, owner: 'a', leaseUntil: 1 }), undefined, 'delivered is final');
    });

    it('when due deliveries are claimed in a batch, then only due, unclaimed, pending or failed ones, earliest first, up to the limit', async () => {
      const repo = await fresh();
      const due1 = aDelivery({ nextAttemptAt: 10 });
      const due2 = aDelivery({ nextAttemptAt: 5, status: 'failed' });
      const due3 = aDelivery({ nextAttemptAt: 20 });
      const later = aDelivery({ nextAttemptAt: 500 });
      const held = aDelivery({ nextAttemptAt: 1, claimedBy: 'z', claimUntil: 300 });
      const done = aDelivery({ nextAttemptAt: 1, status: 'delivered' });
      const dead = aDelivery({ nextAttemptAt: 1, status: 'dead' });
      for (const d of [due1, due2, due3, later, held, done, dead]) await repo.insertIfAbsent(d);
      const first = await repo.claimDue({ now: 100, owner: 'a', leaseUntil: 400 }, 2);
      assert.deepEqual(first.map((d) => d.id), [due2.id, due1.id]);
      const second = await repo.claimDue({ now: 100, owner: 'b', leaseUntil: 400 }, 10);
      assert.deepEqual(second.map((d) => d.id), [due3.id]);
      assert.equal(await repo.nextDueAt(), 300, "the held one frees up first");
    });

    it('when deliveries are updated and listed, then the log is per hook, newest first, paged', async () => {
      const repo = await fresh();
      const hookId = newId();
      const items = [aDelivery({ hookId }), aDelivery({ hookId }), aDelivery({ hookId }), aDelivery()];
      for (const d of items) await repo.insertIfAbsent(d);
      assert.deepEqual((await repo.listByHook(hookId, { page: 0, perPage: 60 })).map((d) => d.id), [items[2]?.id, items[1]?.id, items[0]?.id]);
      assert.deepEqual((await repo.listByHook(hookId, { page: 1, perPage: 2 })).map((d) => d.id), [items[0]?.id]);
      const updated = await repo.update(items[0]?.id ?? '', { status: 'pending', tries: 0, lastError: '' });
      assert.equal(updated?.status, 'pending');
      assert.equal(await repo.update(newId(), { status: 'dead' }), undefined);
    });

    it('when nothing is pending, then there is no next due time', async () => {
      const repo = await fresh();
      assert.equal(await repo.nextDueAt(), undefined);
      await repo.insertIfAbsent(aDelivery({ status: 'delivered' }));
      assert.equal(await repo.nextDueAt(), undefined);
    });

    it('when deliveries are in every state, then only pending and failed ones count as waiting', async () => {
      const repo = await fresh();
      for (const status of ['pending', 'failed', 'failed', 'delivered', 'dead'] as const) await repo.insertIfAbsent(aDelivery({ status }));
      assert.equal(await repo.countWaiting(), 3);
    });

    it('when an ordered delivery asks what it waits for, then the oldest earlier pending or failed one of the same hook, channel and URL, nothing else', async () => {
      const repo = await fresh();
      const chain = { hookId: newId(), channelId: newId(), url: 'http://example.com/a' };
      await repo.insertIfAbsent(aDelivery({ ...chain, createAt: 10, status: 'delivered' }));
      await repo.insertIfAbsent(aDelivery({ ...chain, createAt: 11, status: 'dead' }));
      const failed = aDelivery({ ...chain, createAt: 20, status: 'failed' });
      const pending = aDelivery({ ...chain, createAt: 30, status: 'pending' });
      await repo.insertAllIfAbsent([pending, failed]);
      await repo.insertIfAbsent(aDelivery({ ...chain, url: 'http://example.com/b', createAt: 5, status: 'failed' }));
      await repo.insertIfAbsent(aDelivery({ ...chain, channelId: newId(), createAt: 5, status: 'failed' }));
      await repo.insertIfAbsent(aDelivery({ ...chain, hookId: newId(), createAt: 5, status: 'failed' }));
      assert.equal((await repo.earliestWaitingBefore(chain, 40))?.id, failed.id);
      assert.equal((await repo.earliestWaitingBefore(chain, 25))?.id, failed.id);
      assert.equal(await repo.earliestWaitingBefore(chain, 20), undefined, 'only strictly earlier ones');
      await repo.update(failed.id, { status: 'delivered' });
      assert.equal((await repo.earliestWaitingBefore(chain, 40))?.id, pending.id);
      assert.equal(await repo.earliestWaitingBefore(chain, 30), undefined);
    });

    it('when a chain holds deliveries that fired while its hook was not ordered, then an ordered one waits only for the ordered ones (older records without the mark count as ordered)', async () => {
      const repo = await fresh();
      const chain = { hookId: newId(), channelId: newId(), url: 'http://example.com/a' };
      const unordered = aDelivery({ ...chain, createAt: 10, status: 'failed', nextAttemptAt: 10, ordered: false });
      const unmarked = aDelivery({ ...chain, createAt: 20, status: 'pending' });
      const ordered = aDelivery({ ...chain, createAt: 30, status: 'failed', ordered: true });
      await repo.insertAllIfAbsent([unordered, unmarked, ordered]);
      assert.equal(await repo.earliestWaitingBefore(chain, 15), undefined, 'an unordered one is not waited for');
      assert.equal((await repo.earliestWaitingBefore(chain, 40))?.id, unmarked.id);
      await repo.update(unmarked.id, { status: 'delivered' });
      assert.equal((await repo.earliestWaitingBefore(chain, 40))?.id, ordered.id);
      assert.deepEqual(await repo.findById(unordered.id), unordered, 'the mark is kept');
      assert.equal((await repo.claimDue({ now: 15, owner: 's', leaseUntil: 2_000 }, 10)).some((d) => d.id === unordered.id), true, 'an unordered one is still retried');
    });
  });
}

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newId } from '@switchyard/ids';
import type { StoredStatus } from '../../domain/statuses/status';
import type { StatusStore } from '../../domain/statuses/status-store';

const status = (userId: string, extra: Partial<StoredStatus> = {}): StoredStatus => ({
  userId,
  status: 'dnd',
  manual: true,
  lastActivityAt: 1_700_000_000_000,
  dndEndTime: 1_700_000_600,
  prevStatus: 'away',
  socket: false,
  ...extra,
});

/** What every StatusStore adapter must do; `makeStores` gives two handles on one shared store (two replicas). */
export function statusStoreContract(name: string, makeStores: () => Promise<readonly [StatusStore, StatusStore]>): void {
  describe(`StatusStore contract: ${name}`, () => {
    it('when a status is put through one handle, then the other reads every field back; unknown users are absent', async () => {
      const [a, b] = await makeStores();
      const [alice, nobody] = [newId(), newId()];
      await a.put(status(alice));
      const read = await b.get([alice, nobody]);
      assert.deepEqual(read.get(alice), status(alice));
      assert.equal(read.has(nobody), false);
    });

    it('when a status is put again, then the last one wins', async () => {
      const [a, b] = await makeStores();
      const bob = newId();
      await a.put(status(bob));
      await b.put(status(bob, { status: 'online', manual: false, dndEndTime: 0, prevStatus: 'online', socket: true }));
      assert.equal((await a.get([bob])).get(bob)?.status, 'online');
      assert.equal((await a.get([bob])).get(bob)?.manual, false);
      assert.equal((await a.get([bob])).get(bob)?.socket, true);
    });

    it('when many users are read at once, then each gets its own status', async () => {
      const [a] = await makeStores();
      const ids = Array.from({ length: 25 }, () => newId());
      for (const [i, id] of ids.entries()) await a.put(status(id, { lastActivityAt: i }));
      const read = await a.get(ids);
      assert.deepEqual(ids.map((id) => read.get(id)?.lastActivityAt), ids.map((_, i) => i));
    });
  });
}

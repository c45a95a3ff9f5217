import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newId } from '@switchyard/ids';
import type { PresenceStore } from '../../domain/ports';

/** Replicas sharing one store (one board, or one Redis and key prefix). */
export interface PresenceWorld {
  replica(replicaId: string): Promise<PresenceStore>;
}

/** What every PresenceStore adapter must do: statuses are the union of every replica's online users. */
export function presenceStoreContract(name: string, makeWorld: () => Promise<PresenceWorld>): void {
  describe(`PresenceStore contract: ${name}`, () => {
    it('when a user comes online on one replica, then every replica sees them online; unknown users are not', async () => {
      const world = await makeWorld();
      const [a, b] = [await world.replica('a'), await world.replica('b')];
      const [alice, nobody] = [newId(), newId()];
      a.set(alice, true);
      assert.deepEqual([...(await b.onlineAmong([alice, nobody]))], [alice]);
      assert.deepEqual([...(await a.onlineAmong([alice]))], [alice]);
      assert.deepEqual(await b.onlineUsers(), [alice]);
    });

    it('when a user is online on two replicas and leaves one, then they stay online until they leave both', async () => {
      const world = await makeWorld();
      const [a, b] = [await world.replica('a'), await world.replica('b')];
      const bob = newId();
      a.set(bob, true);
      b.set(bob, true);
      a.set(bob, false);
      assert.equal((await a.onlineAmong([bob])).has(bob), true);
      b.set(bob, false);
      assert.equal((await a.onlineAmong([bob])).has(bob), false);
      assert.deepEqual(await a.onlineUsers(), []);
    });

    it('when a replica closes, then its users no longer count as online', async () => {
      const world = await makeWorld();
      const [a, b] = [await world.replica('a'), await world.replica('b')];
      const [carol, dave] = [newId(), newId()];
      a.set(carol, true);
      b.set(dave, true);
      await a.close();
      assert.deepEqual([...(await b.onlineAmong([carol, dave]))], [dave]);
      assert.deepEqual(await b.onlineUsers(), [dave]);
    });

    it('when replicas share a store, then exactly one leads, the first by id; when it closes, the next leads (once it refreshed)', async () => {
      const world = await makeWorld();
      // An adapter that learns of the others at its refresh (Redis) is refreshed as its timer would.
      const refreshed = async (replica: PresenceStore): Promise<void> => (replica as Partial<{ refresh(): Promise<void> }>).refresh?.();
      const b = await world.replica('b');
      assert.equal(b.leads(), true, 'alone');
      const a = await world.replica('a');
      await refreshed(b);
      assert.deepEqual([a.leads(), b.leads()], [true, false]);
      await a.close();
      await refreshed(b);
      assert.equal(b.leads(), true);
    });

    it('when thousands of ids are asked, then each is answered (more than one batch of a thousand)', async () => {
      const world = await makeWorld();
      const [a, b] = [await world.replica('a'), await world.replica('b')];
      const ids = Array.from({ length: 2_500 }, () => newId());
      const online = ids.filter((_, i) => i % 7 === 0 || i === 1_000 || i === 2_499);
      for (const id of online.filter((_, i) => i % 2 === 0)) a.set(id, true);
      for (const id of online.filter((_, i) => i % 2 === 1)) b.set(id, true);
      assert.deepEqual([...(await a.onlineAmong(ids))].sort(), [...online].sort());
      assert.equal((await b.onlineUsers()).length, online.length);
      assert.equal((await a.onlineAmong([])).size, 0);
    });
  });
}

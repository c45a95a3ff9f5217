import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { newId } from '@switchyard/ids';
import { openStore, openTestStore, type TestStore } from '@switchyard/sqlite-kit';
import { statusStoreContract } from '../contracts/status-store.contract';
import { SqliteStatusStore } from './status-store.sqlite';

const stores: TestStore[] = [];
after(async () => {
  for (const store of stores.splice(0)) await store.dispose();
});

// Two handles on one database file (the shared-store case of the contract).
statusStoreContract('SqliteStatusStore', async () => {
  const store = openTestStore('realtime-status-');
  stores.push(store);
  return [new SqliteStatusStore(store), new SqliteStatusStore(store)];
});

describe('SqliteStatusStore across a restart', () => {
  it('when the store is closed and opened again, then a manual status is still there', async () => {
    const first = openTestStore('realtime-status-restart-');
    stores.push(first);
    const userId = newId();
    await new SqliteStatusStore(first).put({ userId, status: 'dnd', manual: true, lastActivityAt: 5, dndEndTime: 0, prevStatus: 'online', socket: false });
    await first.flush();
    const dir = first.dir;
    await first.close();
    const reopened = openStore({ dir });
    try {
      const read = await new SqliteStatusStore(reopened).get([userId]);
      assert.deepEqual(read.get(userId), { userId, status: 'dnd', manual: true, lastActivityAt: 5, dndEndTime: 0, prevStatus: 'online', socket: false });
    } finally {
      await reopened.close();
    }
  });
});

import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openTestStore, type TestStore } from '@switchyard/sqlite-kit';
import { aDelivery } from '../contracts/fixtures';
import { createSqliteRepositories, OUTGOING_DISPATCH_COMPONENT, OUTGOING_DISPATCH_MIGRATIONS } from './index';

const stores: TestStore[] = [];
after(async () => {
  for (const store of stores.splice(0)) await store.dispose();
});

/** A store whose outgoing-dispatch tables are at the version before deliveries were marked ordered, with one waiting delivery. */
function storeBeforeOrderedMark(): { store: TestStore; chain: { hookId: string; channelId: string; url: string }; oldId: string } {
  const store = openTestStore('outgoing-dispatch-migration-');
  stores.push(store);
  store.migrate(OUTGOING_DISPATCH_COMPONENT, OUTGOING_DISPATCH_MIGRATIONS.slice(0, 3));
  const old = aDelivery({ createAt: 10, status: 'failed' });
  store.db
    .prepare('INSERT INTO od_deliveries (id, hook_id, status, create_at, next_attempt_at, claimed_by, claim_until, doc) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
    .run(old.id, old.hookId, old.status, old.createAt, old.nextAttemptAt, old.claimedBy, old.claimUntil, JSON.stringify(old));
  return { store, chain: { hookId: old.hookId, channelId: old.channelId, url: old.url }, oldId: old.id };
}

describe('outgoing-dispatch SQLite schema: deliveries marked ordered', () => {
  it('when a store from before the mark is opened, then its waiting deliveries still hold back the ordered ones after them', async () => {
    const { store, chain, oldId } = storeBeforeOrderedMark();
    const { deliveries } = createSqliteRepositories(store);
    assert.equal(store.versions()[OUTGOING_DISPATCH_COMPONENT], OUTGOING_DISPATCH_MIGRATIONS.length);
    assert.equal((await deliveries.earliestWaitingBefore(chain, 50))?.id, oldId);
    await deliveries.insertIfAbsent(aDelivery({ ...chain, createAt: 5, status: 'pending', ordered: false }));
    assert.equal((await deliveries.earliestWaitingBefore(chain, 50))?.id, oldId, 'a new unordered one is not waited for');
  });

  it('when deliveries are stored, then the index of waiting deliveries holds the ordered ones (old rows included) and no unordered one', async () => {
    const { store, chain } = storeBeforeOrderedMark();
    const { deliveries } = createSqliteRepositories(store);
    await deliveries.insertAllIfAbsent([aDelivery({ ...chain, status: 'pending', ordered: false }), aDelivery({ ...chain, status: 'pending', ordered: true })]);
    const indexed = store.db
      .prepare("SELECT count(*) AS n FROM od_deliveries INDEXED BY od_deliveries_waiting WHERE hook_id = ? AND status IN ('pending', 'failed') AND ordered = 1")
      .get(chain.hookId) as { n: number };
    assert.equal(indexed.n, 2, 'the old one and the new ordered one');
  });
});

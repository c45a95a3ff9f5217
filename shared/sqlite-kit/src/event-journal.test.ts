import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryEventBus, type BusMessage } from '@switchyard/event-bus';
import { eventBusContract } from '@switchyard/event-bus/contract';
import { openStore, openTestStore, SqliteEventJournal, type SqliteStore } from './index';

eventBusContract('memory + sqlite journal', async () => {
  const store = openTestStore('bus-contract-');
  const journal = new SqliteEventJournal(store);
  const bus = new MemoryEventBus({ retryDelayMs: 1, journal });
  return {
    bus,
    ensureTopics: async () => undefined,
    newClient: async () => ({
      publish: (topic, messages) => bus.publish(topic, messages),
      subscribe: (options) => bus.subscribe(options),
      health: () => bus.health(),
      close: async () => undefined,
    }),
    cleanup: async () => {
      await bus.close();
      await journal.flush();
      await store.dispose();
    },
  };
});

async function until(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !predicate(); i += 1) await new Promise((resolve) => setImmediate(resolve));
  assert.ok(predicate(), 'condition not reached');
}

function open(dir: string): { store: SqliteStore; journal: SqliteEventJournal; bus: MemoryEventBus } {
  const store = openStore({ dir });
  const journal = new SqliteEventJournal(store);
  return { store, journal, bus: new MemoryEventBus({ retryDelayMs: 1, journal }) };
}

async function shutdown(run: { store: SqliteStore; journal: SqliteEventJournal; bus: MemoryEventBus }): Promise<void> {
  await run.bus.close();
  await run.journal.flush();
  await run.store.close();
}

describe('in-process bus on the SQLite journal across restarts', () => {
  it('when a group had not handled messages before a restart, then it gets them after, and not the handled ones again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bus-restart-'));
    const first = open(dir);
    const seen: number[] = [];
    const sub = await first.bus.subscribe({ groupId: 'durable', topics: ['t'], fromBeginning: true, handler: async (m) => void seen.push((m.value as { n: number }).n) });
    await first.bus.publish('t', [1, 2, 3].map((n) => ({ key: `k${n}`, value: { n } })));
    await until(() => seen.length === 3);
    await sub.stop();
    await first.bus.publish('t', [4, 5].map((n) => ({ key: `k${n}`, value: { n } })));
    await shutdown(first);

    const second = open(dir);
    const after: BusMessage[] = [];
    await second.bus.subscribe({ groupId: 'durable', topics: ['t'], handler: async (m) => void after.push(m) });
    await until(() => after.length === 2);
    assert.deepEqual(after.map((m) => (m.value as { n: number }).n).sort(), [4, 5]);
    // Offsets go on after the restored ones: a new message is not mistaken for a handled one.
    await second.bus.publish('t', [{ key: 'k1', value: { n: 6 } }]);
    await until(() => after.length === 3);
    assert.equal((after[2]?.value as { n: number }).n, 6);
    await shutdown(second);
  });

  it('when groups of the previous run do not come back, then forgetDormantGroups drops them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bus-dormant-'));
    const first = open(dir);
    await first.bus.subscribe({ groupId: 'per-instance-old', topics: ['t'], handler: async () => undefined });
    await first.bus.subscribe({ groupId: 'durable', topics: ['t'], handler: async () => undefined });
    await shutdown(first);
    const second = open(dir);
    await second.bus.subscribe({ groupId: 'durable', topics: ['t'], handler: async () => undefined });
    assert.deepEqual(second.bus.forgetDormantGroups(), ['per-instance-old']);
    await second.journal.flush();
    await second.store.flush();
    const groups = second.store.db.prepare('SELECT DISTINCT group_id FROM bus_offsets ORDER BY group_id').all() as { group_id: string }[];
    assert.deepEqual(groups.map((g) => g.group_id), ['durable']);
    await shutdown(second);
  });

  it('when a publish resolves, then its messages are in the store', async () => {
    const store = openTestStore('bus-durable-');
    const bus = new MemoryEventBus({ journal: new SqliteEventJournal(store) });
    await bus.publish('t', [{ key: 'a', value: { x: 1 } }]);
    const row = store.db.prepare('SELECT key, value FROM bus_messages').get() as { key: string; value: string };
    assert.deepEqual(row, { key: 'a', value: '{"x":1}' });
    await bus.close();
    await store.dispose();
  });
});

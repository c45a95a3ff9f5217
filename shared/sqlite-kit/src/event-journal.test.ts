import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryEventBus, type BusMessage } from '@switchyard/event-bus';
import { eventBusContract } from '@switchyard/event-bus/contract';
import { EVENT_BUS_COMPONENT, EVENT_BUS_MIGRATIONS, openStore, openTestStore, SqliteEventJournal, type SqliteStore } from './index';

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
    const sub = await first.bus.subscribe({ groupId: 'durable', topics: ['t'], handler: async (m) => void seen.push((m.value as { n: number }).n) });
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

  it('when a publish resolves and the store flushed, then its messages are in the store', async () => {
    const store = openTestStore('bus-durable-');
    const bus = new MemoryEventBus({ journal: new SqliteEventJournal(store) });
    await bus.publish('t', [{ key: 'a', value: { x: 1 } }]);
    await store.flush();
    const row = store.db.prepare('SELECT key, value FROM bus_messages').get() as { key: string; value: string };
    assert.deepEqual(row, { key: 'a', value: '{"x":1}' });
    await bus.close();
    await store.dispose();
  });

  it('when every group handled messages before the commit, then they are not written and offsets go on after them after a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bus-skip-'));
    const first = open(dir);
    const seen: number[] = [];
    await first.bus.subscribe({ groupId: 'quick', topics: ['t'], handler: async (m) => void seen.push((m.value as { n: number }).n) });
    await first.bus.publish('t', [1, 2, 3].map((n) => ({ key: 'same', value: { n } })));
    await until(() => seen.length === 3);
    await first.store.flush();
    const stored = first.store.db.prepare('SELECT count(*) AS n FROM bus_messages').get() as { n: number };
    assert.equal(stored.n, 0, 'handled within the turn: nothing written');
    await shutdown(first);

    const second = open(dir);
    const after: BusMessage[] = [];
    await second.bus.subscribe({ groupId: 'quick', topics: ['t'], handler: async (m) => void after.push(m) });
    await second.bus.publish('t', [{ key: 'same', value: { n: 4 } }]);
    await until(() => after.length === 1);
    assert.deepEqual(after.map((m) => [m.offset, (m.value as { n: number }).n]), [['3', 4]], 'the next offset, not one the group already passed');
    await shutdown(second);
  });

  it('when one group is behind, then the messages it has not handled are written and handed to it after a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bus-behind-'));
    const first = open(dir);
    const quick: number[] = [];
    await first.bus.subscribe({ groupId: 'quick', topics: ['t'], handler: async (m) => void quick.push((m.value as { n: number }).n) });
    await first.bus.subscribe({ groupId: 'slow', topics: ['t'], handler: () => new Promise<void>(() => undefined) });
    await first.bus.publish('t', [1, 2].map((n) => ({ key: 'same', value: { n } })));
    await until(() => quick.length === 2);
    await first.store.flush();
    // SIGKILL-like: the store goes away without the bus closing (the slow handler never returns).
    await first.store.close();

    const second = open(dir);
    const slow: number[] = [];
    await second.bus.subscribe({ groupId: 'quick', topics: ['t'], handler: async (m) => void quick.push((m.value as { n: number }).n) });
    await second.bus.subscribe({ groupId: 'slow', topics: ['t'], handler: async (m) => void slow.push((m.value as { n: number }).n) });
    await until(() => slow.length === 2);
    assert.deepEqual(slow, [1, 2]);
    assert.deepEqual(quick, [1, 2], 'the quick group is not handed them again');
    await shutdown(second);
  });

  it('when a journal write fails, then the commit and every later write fail, so the stored log never has a hole', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bus-fail-'));
    const first = open(dir);
    first.store.db.exec("CREATE TRIGGER poison BEFORE INSERT ON bus_messages WHEN NEW.value LIKE '%poison%' BEGIN SELECT RAISE(ABORT, 'poisoned write'); END");
    // One key, so one partition; no group reads the topic, so every message is written.
    await first.bus.publish('t', [{ key: 'a', value: { n: 1 } }]);
    await first.store.flush();
    await first.bus.publish('t', [{ key: 'a', value: { n: 2, poison: true } }]);
    await assert.rejects(first.store.flush(), /poisoned write/);
    await assert.rejects(first.bus.publish('t', [{ key: 'a', value: { n: 3 } }]), /poisoned write/);
    assert.equal(first.store.health(), false);
    await first.store.close().catch(() => undefined);

    const second = open(dir);
    const seen: number[] = [];
    await second.bus.subscribe({ groupId: 'late', topics: ['t'], handler: async (m) => void seen.push((m.value as { n: number }).n) });
    await second.bus.publish('t', [{ key: 'a', value: { n: 4 } }]);
    await until(() => seen.length === 2);
    assert.deepEqual(seen, [1, 4]);
    await shutdown(second);
  });
});

describe('event journal: history of the event topics (event cursors)', () => {
  it('when every group handled and trimmed a history topic, then readLog still reads it from the journal within the retention; older is gone, other topics are not kept', async () => {
    const store = openTestStore('bus-history-');
    let now = 1_000_000;
    const journal = new SqliteEventJournal(store, undefined, { topics: ['events'], retentionMs: () => 3_600_000, now: () => now });
    const bus = new MemoryEventBus({ retryDelayMs: 1, journal, defaultPartitions: 1 });
    let handled = 0;
    const sub = await bus.subscribe({ groupId: 'g', topics: ['events', 'other'], handler: async () => void (handled += 1) });
    for (let i = 0; i < 3000; i += 1) await store.write(() => bus.publish(i % 2 === 0 ? 'events' : 'other', [{ key: 'k', value: { i } }]));
    await until(() => handled === 3000);
    await store.write(() => bus.publish('events', [{ key: 'k', value: { last: true } }]));
    await until(() => handled === 3001);
    await journal.flush();
    const read = await bus.readLog([{ topic: 'events', partition: 0, from: '0', to: '1501' }], 10_000);
    assert.equal(read.gone, false);
    assert.equal(read.messages.length, 1501);
    assert.deepEqual(read.messages[3]?.value, { i: 6 });
    assert.deepEqual((await bus.readLog([{ topic: 'other', partition: 0, from: '0', to: '10' }], 100)).gone, true, 'not a history topic: trimmed and gone');
    // Two hours later, the next write prunes what is older than the retention (an hour).
    now += 2 * 3_600_000;
    await store.write(() => bus.publish('events', [{ key: 'k', value: { later: true } }]));
    await until(() => handled === 3002);
    await journal.flush();
    assert.equal((await bus.readLog([{ topic: 'events', partition: 0, from: '0', to: '10' }], 100)).gone, true, 'older than the retention');
    await sub.stop();
    await bus.close();
    await store.dispose();
  });
});

describe('event journal: when a message is durable', () => {
  it('when a message is published in an open write, then whenDurable waits for its commit and sync; messages on disk (also after a restart) need no wait', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bus-durable-'));
    const first = open(dir);
    void first.store.write(() => void first.bus.publish('t', [{ key: 'k', value: { n: 1 } }]));
    const waiting = first.journal.whenDurable('t', 0, 0) ?? first.journal.whenDurable('t', 1, 0) ?? first.journal.whenDurable('t', 2, 0);
    assert.ok(waiting, 'not on disk before its write commits');
    let done = false;
    void waiting.then(() => (done = true));
    await Promise.resolve();
    assert.equal(done, false);
    await first.store.flush();
    await waiting;
    for (const p of [0, 1, 2]) assert.equal(first.journal.whenDurable('t', p, 0), undefined, 'on disk after the flush');
    assert.equal(first.journal.whenDurable('t', 0, 5), undefined, 'never appended: nothing to wait for');
    await first.bus.publish('t', [{ key: 'k', value: { n: 2 } }]);
    await shutdown(first);
    const second = open(dir);
    for (const p of [0, 1, 2]) for (const o of [0, 1]) assert.equal(second.journal.whenDurable('t', p, o), undefined, 'loaded from disk');
    await shutdown(second);
  });
});

describe('event journal: history topics are written once', () => {
  function openWithHistory(dir: string, clock: { now: number }, retentionMs = 3_600_000): { store: SqliteStore; journal: SqliteEventJournal; bus: MemoryEventBus } {
    const store = openStore({ dir });
    const journal = new SqliteEventJournal(store, undefined, { topics: ['events'], retentionMs: () => retentionMs, now: () => clock.now });
    return { store, journal, bus: new MemoryEventBus({ retryDelayMs: 1, journal, defaultPartitions: 1 }) };
  }
  const count = (store: SqliteStore, table: string): number => (store.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

  it('when a group has not handled history-topic messages, then they are only in the history, survive pruning by age and a restart, and reach the group once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bus-history-once-'));
    const clock = { now: 1_000_000 };
    const first = openWithHistory(dir, clock);
    const quick: number[] = [];
    await first.bus.subscribe({ groupId: 'quick', topics: ['events'], handler: async (m) => void quick.push((m.value as { n: number }).n) });
    await first.bus.subscribe({ groupId: 'slow', topics: ['events'], handler: () => new Promise<void>(() => undefined) });
    await first.bus.publish('events', [1, 2, 3].map((n) => ({ key: 'k', value: { n } })));
    await until(() => quick.length === 3);
    await first.store.flush();
    assert.equal(count(first.store, 'bus_messages'), 0, 'not in the log table');
    assert.equal(count(first.store, 'bus_history'), 3, 'once, in the history');
    // Past the retention: the next write's prune keeps what the slow group has not handled.
    clock.now += 2 * 3_600_000;
    await first.bus.publish('events', [{ key: 'k', value: { n: 4 } }]);
    await until(() => quick.length === 4);
    await first.store.flush();
    assert.equal(count(first.store, 'bus_history'), 4, 'unhandled: not pruned');
    // SIGKILL-like: the store goes away without the bus closing.
    await first.store.close();

    const second = openWithHistory(dir, clock);
    const slow: number[] = [];
    await second.bus.subscribe({ groupId: 'quick', topics: ['events'], handler: async (m) => void quick.push((m.value as { n: number }).n) });
    await second.bus.subscribe({ groupId: 'slow', topics: ['events'], handler: async (m) => void slow.push((m.value as { n: number }).n) });
    await until(() => slow.length === 4);
    assert.deepEqual(slow, [1, 2, 3, 4]);
    assert.deepEqual(quick, [1, 2, 3, 4], 'the quick group is not handed them again');
    await second.bus.publish('events', [{ key: 'k', value: { n: 5 } }]);
    await until(() => slow.length === 5 && quick.length === 5);
    assert.deepEqual(slow, [1, 2, 3, 4, 5], 'offsets go on after the reloaded ones');
    await shutdown(second);
  });

  it('when the retention is 0, then history-topic messages a group has not handled are in the log table and reach it after a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bus-history-none-'));
    const clock = { now: 1_000_000 };
    const first = openWithHistory(dir, clock, 0);
    await first.bus.subscribe({ groupId: 'slow', topics: ['events'], handler: () => new Promise<void>(() => undefined) });
    await first.bus.publish('events', [1, 2].map((n) => ({ key: 'k', value: { n } })));
    await first.store.flush();
    assert.equal(count(first.store, 'bus_history'), 0);
    assert.equal(count(first.store, 'bus_messages'), 2);
    await first.store.close();

    const second = openWithHistory(dir, clock);
    const slow: number[] = [];
    await second.bus.subscribe({ groupId: 'slow', topics: ['events'], handler: async (m) => void slow.push((m.value as { n: number }).n) });
    await until(() => slow.length === 2);
    // Now with a retention: the next one is only in the history, and the group gets all three in order.
    await second.bus.publish('events', [{ key: 'k', value: { n: 3 } }]);
    await until(() => slow.length === 3);
    assert.deepEqual(slow, [1, 2, 3]);
    await shutdown(second);
  });
});

describe('event journal: the history as a rowid table (event-bus migration 3)', () => {
  it('when a store at event-bus version 2 has history rows, then the upgrade keeps them: event cursors read them and an unhandled one reaches its group', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bus-history-upgrade-'));
    const old = openStore({ dir });
    old.migrate(EVENT_BUS_COMPONENT, EVENT_BUS_MIGRATIONS.slice(0, 2));
    const insert = old.db.prepare('INSERT INTO bus_history (topic, partition, offset, time, key, value, headers) VALUES (?, 0, ?, ?, ?, ?, ?)');
    for (let n = 0; n < 3; n += 1) insert.run('events', n, 1_000_000, 'k', JSON.stringify({ n }), '{}');
    // Offsets 0 and 1 handled by the group and trimmed; 2 not yet.
    old.db.prepare("INSERT INTO bus_partitions (topic, partition, base) VALUES ('events', 0, 2)").run();
    old.db.prepare("INSERT INTO bus_offsets (group_id, topic, partition, next) VALUES ('g', 'events', 0, 2)").run();
    assert.match(String((old.db.prepare("SELECT sql FROM sqlite_master WHERE name = 'bus_history'").get() as { sql: string }).sql), /WITHOUT ROWID/);
    await old.close();

    const store = openStore({ dir });
    const journal = new SqliteEventJournal(store, undefined, { topics: ['events'], retentionMs: () => 3_600_000, now: () => 1_000_000 });
    const bus = new MemoryEventBus({ retryDelayMs: 1, journal, defaultPartitions: 1 });
    assert.equal(store.versions()['event-bus'], 3);
    assert.doesNotMatch(String((store.db.prepare("SELECT sql FROM sqlite_master WHERE name = 'bus_history'").get() as { sql: string }).sql), /WITHOUT ROWID/);
    const seen: number[] = [];
    await bus.subscribe({ groupId: 'g', topics: ['events'], handler: async (m) => void seen.push((m.value as { n: number }).n) });
    await until(() => seen.length === 1);
    assert.deepEqual(seen, [2], 'the unhandled one, once');
    const read = await bus.readLog([{ topic: 'events', partition: 0, from: '0', to: '3' }], 10);
    assert.deepEqual(read.messages.map((m) => m.value), [{ n: 0 }, { n: 1 }, { n: 2 }], 'the history reads all three');
    await bus.publish('events', [{ key: 'k', value: { n: 3 } }]);
    await until(() => seen.length === 2);
    await journal.flush();
    await store.flush();
    assert.equal((store.db.prepare("SELECT count(*) AS n FROM bus_history WHERE topic = 'events'").get() as { n: number }).n, 4);
    await bus.close();
    await store.close();
  });
});

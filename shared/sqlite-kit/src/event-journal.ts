import type { EventJournal, JournalEntry, JournalHistory, JournalHistoryOptions, JournalState } from '@switchyard/event-bus';
import { DurableEnds } from './durable-ends';
import { EVENT_HISTORY_MIGRATION, EVENT_HISTORY_ROWID_MIGRATION, SqliteEventHistory, type EventHistoryOptions } from './event-history';
import type { Migration } from './migrations';
import type { SqliteStore } from './open-store';

export const EVENT_BUS_COMPONENT = 'event-bus';

export const EVENT_BUS_MIGRATIONS: readonly Migration[] = [
  `
  CREATE TABLE bus_messages (
    topic TEXT NOT NULL,
    partition INTEGER NOT NULL,
    offset INTEGER NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    headers TEXT NOT NULL,
    PRIMARY KEY (topic, partition, offset)
  ) STRICT, WITHOUT ROWID;
  -- the first retained offset of each partition (offsets go on from there after a restart)
  CREATE TABLE bus_partitions (
    topic TEXT NOT NULL,
    partition INTEGER NOT NULL,
    base INTEGER NOT NULL,
    PRIMARY KEY (topic, partition)
  ) STRICT;
  CREATE TABLE bus_offsets (
    group_id TEXT NOT NULL,
    topic TEXT NOT NULL,
    partition INTEGER NOT NULL,
    next INTEGER NOT NULL,
    PRIMARY KEY (group_id, topic, partition)
  ) STRICT;
  `,
  EVENT_HISTORY_MIGRATION,
  EVENT_HISTORY_ROWID_MIGRATION,
];

const partitionKey = (topic: string, partition: number): string => `${topic}#${partition}`;

interface StoredRow {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  readonly key: string;
  readonly value: string;
  readonly headers: string;
}

interface RetainedPartition {
  readonly topic: string;
  readonly partition: number;
  readonly byOffset: Map<number, { offset: number; key: string; json: string; headers: Record<string, string> }>;
}

/**
 * The stored messages by partition key: every `bus_messages` row, and the history topics' messages from each
 * partition's base on (what some group had not handled yet: the history is their only copy while it keeps
 * them, see writeQueued), one index range per partition; an offset in both tables is taken once.
 */
function retainedMessages(db: SqliteStore['db'], bases: ReadonlyMap<string, { base: number }>): Map<string, RetainedPartition> {
  const retained = new Map<string, RetainedPartition>();
  const add = (row: StoredRow): void => {
    const key = partitionKey(row.topic, row.partition);
    let found = retained.get(key);
    if (!found) retained.set(key, (found = { topic: row.topic, partition: row.partition, byOffset: new Map() }));
    if (!found.byOffset.has(row.offset)) found.byOffset.set(row.offset, { offset: row.offset, key: row.key, json: row.value, headers: JSON.parse(row.headers) as Record<string, string> });
  };
  for (const row of db.prepare<[], StoredRow>('SELECT topic, partition, offset, key, value, headers FROM bus_messages').all()) add(row);
  const historyFrom = db.prepare<[string, number, number], StoredRow>('SELECT topic, partition, offset, key, value, headers FROM bus_history WHERE topic = ? AND partition = ? AND offset >= ?');
  for (const { topic, partition } of db.prepare<[], { topic: string; partition: number }>('SELECT DISTINCT topic, partition FROM bus_history').all()) {
    for (const row of historyFrom.all(topic, partition, bases.get(partitionKey(topic, partition))?.base ?? 0)) add(row);
  }
  return retained;
}

/**
 * The in-process event bus's log and consumer positions in the embedded store. Published messages,
 * positions and trims are gathered while the store's group transaction is open and written once, just
 * before it commits (`beforeCommit`), in the same transaction as the writes that caused them: a crash
 * keeps all of them or none. A message that every group with a position on its partition has already
 * handled by then is not written at all (the partition's base moves past it instead): in steady state
 * the consumers keep up within the turn, so most messages never reach the disk, and nothing is lost
 * because the groups' new positions commit with it (messages of the history topics are written once, to
 * the history, which also serves as their log). After a crash the bus reloads what its groups had not
 * handled yet and hands it over again (at-least-once; consumers are idempotent). A new group that
 * first joins later (its start `earliest`, the default) gets what is retained, as on a broker with a short
 * retention (ADR 0002).
 *
 * A failed journal write fails the commit, and with it the store (every later write refuses): the stored
 * log can never get a hole with later messages behind it.
 */
export class SqliteEventJournal implements EventJournal {
  private readonly insertMessage;
  private readonly upsertOffset;
  private readonly deleteBelow;
  private readonly upsertBase;
  /** Messages published since the last commit, per partition key, in offset order. */
  private readonly pending = new Map<string, JournalEntry[]>();
  private readonly dirtyOffsets = new Map<string, { groupId: string; topic: string; partition: number; next: number }>();
  private readonly dirtyTrims = new Map<string, { topic: string; partition: number; base: number }>();
  /** partition key → group id → next offset to handle (loaded, then as committed). */
  private readonly positions = new Map<string, Map<string, number>>();
  private hooked = false;
  private readonly kept: SqliteEventHistory | undefined;
  private readonly durable = new DurableEnds();

  /** `history`: topics whose messages are kept for a retention time whatever the groups handled (event cursors). */
  public constructor(
    private readonly store: SqliteStore,
    private readonly onError: (error: unknown) => void = () => undefined,
    history?: EventHistoryOptions,
  ) {
    store.migrate(EVENT_BUS_COMPONENT, EVENT_BUS_MIGRATIONS);
    const db = store.db;
    this.kept = history ? new SqliteEventHistory(store, history) : undefined;
    this.insertMessage = db.prepare('INSERT OR REPLACE INTO bus_messages (topic, partition, offset, key, value, headers) VALUES (?, ?, ?, ?, ?, ?)');
    this.upsertOffset = db.prepare(
      'INSERT INTO bus_offsets (group_id, topic, partition, next) VALUES (?, ?, ?, ?) ON CONFLICT (group_id, topic, partition) DO UPDATE SET next = excluded.next',
    );
    this.deleteBelow = db.prepare('DELETE FROM bus_messages WHERE topic = ? AND partition = ? AND offset < ?');
    this.upsertBase = db.prepare('INSERT INTO bus_partitions (topic, partition, base) VALUES (?, ?, ?) ON CONFLICT (topic, partition) DO UPDATE SET base = max(base, excluded.base)');
  }

  public load(): JournalState {
    const db = this.store.db;
    const bases = new Map<string, { topic: string; partition: number; base: number }>();
    for (const row of db.prepare<[], { topic: string; partition: number; base: number }>('SELECT topic, partition, base FROM bus_partitions').all()) {
      bases.set(partitionKey(row.topic, row.partition), row);
    }
    const messages = retainedMessages(db, bases);
    for (const [key, { topic, partition, byOffset }] of messages) {
      // No base stored: nothing of it was handled yet, it starts at its first message.
      if (!bases.has(key)) bases.set(key, { topic, partition, base: [...byOffset.keys()].reduce((low, offset) => Math.min(low, offset)) });
    }
    const partitions = [...bases.entries()].map(([key, { topic, partition, base }]) => {
      // Offsets are contiguous from the first retained one; anything before `base` was handled by every group.
      const kept = [...(messages.get(key)?.byOffset.values() ?? [])].filter((m) => m.offset >= base).sort((a, b) => a.offset - b.offset);
      const first = kept[0]?.offset ?? base;
      const contiguous = kept.filter((m, i) => m.offset === first + i);
      this.durable.loaded(key, first + contiguous.length);
      return { topic, partition, base: first, messages: contiguous.map(({ key: k, json, headers }) => ({ key: k, json, headers })) };
    });
    const offsets = db
      .prepare<[], { group_id: string; topic: string; partition: number; next: number }>('SELECT group_id, topic, partition, next FROM bus_offsets')
      .all()
      .map((r) => ({ groupId: r.group_id, topic: r.topic, partition: r.partition, next: r.next }));
    for (const o of offsets) this.positionsOf(partitionKey(o.topic, o.partition)).set(o.groupId, o.next);
    return { partitions, offsets };
  }

  /** Queues the messages for the open transaction's commit (rejects when the store has failed). */
  public append(entries: readonly JournalEntry[]): Promise<void> {
    try {
      this.scheduleWrite();
    } catch (error) {
      return Promise.reject(error);
    }
    for (const e of entries) {
      const key = partitionKey(e.topic, e.partition);
      let list = this.pending.get(key);
      if (!list) this.pending.set(key, (list = []));
      list.push(e);
      this.durable.appendedTo(key, e.offset, () => this.store.flush());
    }
    return Promise.resolve();
  }

  public commit(groupId: string, topic: string, partition: number, next: number): void {
    this.dirtyOffsets.set(`${groupId}\u0000${topic}#${partition}`, { groupId, topic, partition, next });
    this.positionsOf(partitionKey(topic, partition)).set(groupId, next);
    this.scheduleQuietly();
  }

  public trim(topic: string, partition: number, base: number): void {
    this.dirtyTrims.set(partitionKey(topic, partition), { topic, partition, base });
    this.scheduleQuietly();
  }

  public forget(groupIds: readonly string[]): void {
    for (const key of [...this.dirtyOffsets.keys()]) if (groupIds.includes(key.split('\u0000')[0] ?? '')) this.dirtyOffsets.delete(key);
    for (const groups of this.positions.values()) for (const id of groupIds) groups.delete(id);
    this.store
      .write(() => this.store.db.prepare('DELETE FROM bus_offsets WHERE group_id IN (SELECT value FROM json_each(?))').run(JSON.stringify(groupIds)))
      .catch((error: unknown) => this.onError(error));
  }

  /**
   * Undefined when the message at `offset` is on disk (committed and synced: a crash keeps it, so its offset
   * is never given to another message); else resolves once it is. The embedded runtime shows events outside
   * the process (WebSocket frames with their cursors) only then, as it answers requests only once durable.
   */
  public whenDurable(topic: string, partition: number, offset: number): Promise<void> | undefined {
    return this.durable.when(partitionKey(topic, partition), offset);
  }

  public history(topic: string, partition: number, from: number, to: number, max: number, options?: JournalHistoryOptions): JournalHistory {
    if (!this.kept?.keeps(topic)) return { first: undefined, entries: [], next: from };
    return this.kept.read(topic, partition, { from, to, max, ...options }, this.pending.get(partitionKey(topic, partition)) ?? []);
  }

  /** Writes what is queued now, in a write of its own (tests, shutdown). */
  public flush(): Promise<void> {
    if (this.pending.size === 0 && this.dirtyOffsets.size === 0 && this.dirtyTrims.size === 0) return Promise.resolve();
    return this.store.write(() => this.writeQueued());
  }

  /** Messages below this offset were handled by every group reading the partition (undefined: no group). */
  private lowestPosition(key: string): number | undefined {
    let low: number | undefined;
    for (const next of this.positions.get(key)?.values() ?? []) low = low === undefined ? next : Math.min(low, next);
    return low;
  }

  private positionsOf(key: string): Map<string, number> {
    let groups = this.positions.get(key);
    if (!groups) this.positions.set(key, (groups = new Map()));
    return groups;
  }

  /**
   * Runs inside the transaction that commits next, after every write of it. A history topic's messages are
   * written once, to the history, which keeps those not handled yet and from which `load` reads them back;
   * `bus_messages` gets the others' (and theirs while the retention is 0).
   */
  private writeQueued(): void {
    for (const [key, entries] of this.pending) {
      const inHistory = this.kept?.keepAll(entries) ?? false;
      const low = this.lowestPosition(key);
      let handledUpTo: number | undefined;
      for (const e of entries) {
        if (low !== undefined && e.offset < low) {
          handledUpTo = e.offset + 1;
          continue;
        }
        if (!inHistory) this.insertMessage.run(e.topic, e.partition, e.offset, e.key, e.json, JSON.stringify(e.headers));
      }
      const first = entries[0];
      // Messages never written: the partition starts after them, so offsets go on from there after a restart.
      if (first && handledUpTo !== undefined) this.upsertBase.run(first.topic, first.partition, handledUpTo);
    }
    this.pending.clear();
    for (const o of this.dirtyOffsets.values()) this.upsertOffset.run(o.groupId, o.topic, o.partition, o.next);
    this.dirtyOffsets.clear();
    for (const t of this.dirtyTrims.values()) {
      this.deleteBelow.run(t.topic, t.partition, t.base);
      this.upsertBase.run(t.topic, t.partition, t.base);
    }
    this.dirtyTrims.clear();
    // After the bases: the history never prunes what a group has not handled.
    this.kept?.pruneWhenDue();
  }

  private scheduleWrite(): void {
    if (this.hooked) return;
    this.store.beforeCommit(() => {
      this.hooked = false;
      this.durable.sealed();
      this.writeQueued();
    });
    this.hooked = true;
  }

  /** Positions and trims: a failed store is reported, and they are written by no later commit anyway. */
  private scheduleQuietly(): void {
    try {
      this.scheduleWrite();
    } catch (error) {
      this.onError(error);
    }
  }
}

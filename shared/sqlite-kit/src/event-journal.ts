import type { EventJournal, JournalEntry, JournalState } from '@switchyard/event-bus';
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
];

const partitionKey = (topic: string, partition: number): string => `${topic}#${partition}`;

/**
 * The in-process event bus's log and consumer positions in the embedded store: published messages are
 * written in the publisher's group commit (publish resolves once they are on disk); positions and
 * trims are coalesced into one write per event-loop turn. After a crash the bus reloads what its
 * groups had not handled yet and hands it over again (at-least-once; consumers are idempotent).
 */
export class SqliteEventJournal implements EventJournal {
  private readonly insertMessage;
  private readonly upsertOffset;
  private readonly deleteBelow;
  private readonly upsertBase;
  private readonly dirtyOffsets = new Map<string, { groupId: string; topic: string; partition: number; next: number }>();
  private readonly dirtyTrims = new Map<string, { topic: string; partition: number; base: number }>();
  private flushScheduled = false;

  public constructor(
    private readonly store: SqliteStore,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {
    store.migrate(EVENT_BUS_COMPONENT, EVENT_BUS_MIGRATIONS);
    const db = store.db;
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
    const messages = new Map<string, { offset: number; key: string; json: string; headers: Record<string, string> }[]>();
    const rows = db
      .prepare<[], { topic: string; partition: number; offset: number; key: string; value: string; headers: string }>(
        'SELECT topic, partition, offset, key, value, headers FROM bus_messages ORDER BY topic, partition, offset',
      )
      .all();
    for (const row of rows) {
      const key = partitionKey(row.topic, row.partition);
      if (!bases.has(key)) bases.set(key, { topic: row.topic, partition: row.partition, base: row.offset });
      let list = messages.get(key);
      if (!list) messages.set(key, (list = []));
      list.push({ offset: row.offset, key: row.key, json: row.value, headers: JSON.parse(row.headers) as Record<string, string> });
    }
    const partitions = [...bases.entries()].map(([key, { topic, partition, base }]) => {
      // Offsets are contiguous from the first retained one; anything before `base` was handled by every group.
      const kept = (messages.get(key) ?? []).filter((m) => m.offset >= base);
      const first = kept[0]?.offset ?? base;
      const contiguous = kept.filter((m, i) => m.offset === first + i);
      return { topic, partition, base: first, messages: contiguous.map(({ key: k, json, headers }) => ({ key: k, json, headers })) };
    });
    const offsets = db
      .prepare<[], { group_id: string; topic: string; partition: number; next: number }>('SELECT group_id, topic, partition, next FROM bus_offsets')
      .all()
      .map((r) => ({ groupId: r.group_id, topic: r.topic, partition: r.partition, next: r.next }));
    return { partitions, offsets };
  }

  public append(entries: readonly JournalEntry[]): Promise<void> {
    return this.store.write(() => {
      for (const e of entries) this.insertMessage.run(e.topic, e.partition, e.offset, e.key, e.json, JSON.stringify(e.headers));
    });
  }

  public commit(groupId: string, topic: string, partition: number, next: number): void {
    this.dirtyOffsets.set(`${groupId}\u0000${topic}#${partition}`, { groupId, topic, partition, next });
    this.scheduleFlush();
  }

  public trim(topic: string, partition: number, base: number): void {
    this.dirtyTrims.set(partitionKey(topic, partition), { topic, partition, base });
    this.scheduleFlush();
  }

  public forget(groupIds: readonly string[]): void {
    for (const key of [...this.dirtyOffsets.keys()]) if (groupIds.includes(key.split('\u0000')[0] ?? '')) this.dirtyOffsets.delete(key);
    this.store
      .write(() => this.store.db.prepare('DELETE FROM bus_offsets WHERE group_id IN (SELECT value FROM json_each(?))').run(JSON.stringify(groupIds)))
      .catch((error: unknown) => this.onError(error));
  }

  /** Writes pending positions and trims now (tests, shutdown). */
  public flush(): Promise<void> {
    const offsets = [...this.dirtyOffsets.values()];
    const trims = [...this.dirtyTrims.values()];
    this.dirtyOffsets.clear();
    this.dirtyTrims.clear();
    if (offsets.length === 0 && trims.length === 0) return Promise.resolve();
    return this.store.write(() => {
      for (const o of offsets) this.upsertOffset.run(o.groupId, o.topic, o.partition, o.next);
      for (const t of trims) {
        this.deleteBelow.run(t.topic, t.partition, t.base);
        this.upsertBase.run(t.topic, t.partition, t.base);
      }
    });
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.flush().catch((error: unknown) => this.onError(error));
    });
  }
}

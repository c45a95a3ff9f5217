import type { JournalEntry, JournalHistory, JournalHistoryOptions } from '@switchyard/event-bus';
import type { SqliteStore } from './open-store';

export interface EventHistoryOptions {
  /** Topics whose messages are kept (realtime's event topics: resumes from an event cursor). */
  readonly topics: readonly string[];
  /** How long a message is kept (ms, read at each write; 0 = none kept). EventSettings.RetentionHours. */
  readonly retentionMs: () => number;
  readonly now?: () => number;
}

/** Older messages are looked for at most this often (ms). */
const PRUNE_EVERY_MS = 60_000;

/** The migration that creates the history table (the event bus component's second). */
export const EVENT_HISTORY_MIGRATION = `
  -- messages of the event topics kept for their retention whatever the groups handled (event cursors)
  CREATE TABLE bus_history (
    topic TEXT NOT NULL,
    partition INTEGER NOT NULL,
    offset INTEGER NOT NULL,
    time INTEGER NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    headers TEXT NOT NULL,
    PRIMARY KEY (topic, partition, offset)
  ) STRICT, WITHOUT ROWID;
`;

/**
 * The event bus component's third migration: the history as a rowid table. A message's row (about 1.5 KB for a
 * post.created) is more than a WITHOUT ROWID table keeps on its page, so each message took an overflow page
 * of its own (4 KB to the WAL): measured 16 us less SQLite CPU per message written as a rowid table (its
 * key in the primary key's index). Existing rows are copied.
 */
export const EVENT_HISTORY_ROWID_MIGRATION = `
  CREATE TABLE bus_history_rows (
    topic TEXT NOT NULL,
    partition INTEGER NOT NULL,
    offset INTEGER NOT NULL,
    time INTEGER NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    headers TEXT NOT NULL,
    PRIMARY KEY (topic, partition, offset)
  ) STRICT;
  INSERT INTO bus_history_rows (topic, partition, offset, time, key, value, headers)
    SELECT topic, partition, offset, time, key, value, headers FROM bus_history ORDER BY topic, partition, offset;
  DROP TABLE bus_history;
  ALTER TABLE bus_history_rows RENAME TO bus_history;
`;

interface Row {
  readonly offset: number;
  readonly key: string;
  readonly value: string;
  readonly headers: string;
}

const entryOf = (row: Row): { offset: number; key: string; json: string; headers: Record<string, string> } => ({
  offset: row.offset,
  key: row.key,
  json: row.value,
  headers: row.headers === '{}' ? {} : (JSON.parse(row.headers) as Record<string, string>),
});

/**
 * The embedded runtime's event history: every message of the history topics, written with the journal's
 * other writes (same transaction), kept `retentionMs` from when it was written and pruned by age (a cursor
 * within the retention always finds its messages, whatever the consumer groups handled). It is also the
 * journal's only copy of these messages (the journal writes them to `bus_messages` only while nothing is
 * kept here, retention 0): so a message some group has not handled yet (at or after its partition's
 * `bus_partitions.base`) is never pruned, whatever its age, and the journal reloads it from here.
 */
export class SqliteEventHistory {
  private readonly topics: ReadonlySet<string>;
  private readonly insert;
  private readonly first;
  private readonly range;
  private readonly keysOf;
  private readonly valuesOf;
  private readonly prunePartition;
  private readonly now: () => number;
  private readonly partitions = new Map<string, { topic: string; partition: number }>();
  private lastPrune = 0;

  public constructor(
    private readonly store: SqliteStore,
    private readonly options: EventHistoryOptions,
  ) {
    this.topics = new Set(options.topics);
    this.now = options.now ?? Date.now;
    const db = store.db;
    this.insert = db.prepare('INSERT OR REPLACE INTO bus_history (topic, partition, offset, time, key, value, headers) VALUES (?, ?, ?, ?, ?, ?, ?)');
    this.first = db.prepare<[string, number], { first: number | null }>('SELECT min(offset) AS first FROM bus_history WHERE topic = ? AND partition = ?');
    this.range = db.prepare<[string, number, number, number, number], Row>(
      'SELECT offset, key, value, headers FROM bus_history WHERE topic = ? AND partition = ? AND offset >= ? AND offset < ? ORDER BY offset LIMIT ?',
    );
    // With a skip filter: the keys first, then the values of the messages kept only (a skipped value is never read into JS).
    this.keysOf = db
      .prepare<[string, number, number, number, number], [number, string]>('SELECT offset, key FROM bus_history WHERE topic = ? AND partition = ? AND offset >= ? AND offset < ? ORDER BY offset LIMIT ?')
      .raw(true);
    this.valuesOf = db.prepare<[string, number, string], Row>(
      'SELECT offset, key, value, headers FROM bus_history WHERE topic = ? AND partition = ? AND offset IN (SELECT value FROM json_each(?)) ORDER BY offset',
    );
    // Everything before the partition's first message young enough (all of it when none is), and never a
    // message some group still has to handle (from the partition's base on; no base yet: none was handled).
    this.prunePartition = db.prepare(
      `DELETE FROM bus_history WHERE topic = @topic AND partition = @partition AND offset < min(
         coalesce(
           (SELECT offset FROM bus_history WHERE topic = @topic AND partition = @partition AND time >= @before ORDER BY offset LIMIT 1),
           (SELECT max(offset) + 1 FROM bus_history WHERE topic = @topic AND partition = @partition)),
         coalesce((SELECT base FROM bus_partitions WHERE topic = @topic AND partition = @partition), 0))`,
    );
    for (const row of db.prepare<[], { topic: string; partition: number }>('SELECT DISTINCT topic, partition FROM bus_history').all()) {
      this.partitions.set(`${row.topic}#${row.partition}`, row);
    }
  }

  public keeps(topic: string): boolean {
    return this.topics.has(topic);
  }

  /**
   * Inside the journal's write: stores one partition's entries (in offset order) when their topic is kept
   * and the retention is not 0. True when it stored them: this is then their only copy in the store.
   */
  public keepAll(entries: readonly JournalEntry[]): boolean {
    const first = entries[0];
    if (first === undefined || !this.topics.has(first.topic) || this.retentionMs() === 0) return false;
    const now = this.now();
    for (const e of entries) this.insert.run(e.topic, e.partition, e.offset, now, e.key, e.json, JSON.stringify(e.headers));
    const key = `${first.topic}#${first.partition}`;
    if (!this.partitions.has(key)) this.partitions.set(key, { topic: first.topic, partition: first.partition });
    return true;
  }

  /** Inside the journal's write, after its partitions' bases: prunes now and then. */
  public pruneWhenDue(): void {
    const now = this.now();
    if (now - this.lastPrune >= PRUNE_EVERY_MS) this.prune(now - this.retentionMs(), now);
  }

  /** Removes what is older than the retention (all of it when the retention is 0) and handled by every group. */
  public prune(before: number, now = this.now()): void {
    this.lastPrune = now;
    for (const { topic, partition } of this.partitions.values()) this.prunePartition.run({ topic, partition, before });
  }

  /**
   * The stored messages of a partition from `from` on, consecutive (`pending`: written by the next commit,
   * appended after), less those `skip` refuses (their values are not read); `next`: after the last looked at.
   */
  public read(topic: string, partition: number, range: { from: number; to: number; max: number } & JournalHistoryOptions, pending: readonly JournalEntry[]): JournalHistory {
    const { from, to, max, skip } = range;
    const maxScanned = Math.max(1, range.maxScanned ?? max);
    const stored = this.first.get(topic, partition)?.first ?? undefined;
    const entries: { offset: number; key: string; json: string; headers: Record<string, string> }[] = [];
    let next = from;
    const full = (): boolean => entries.length >= max || next - from >= maxScanned;
    if (stored !== undefined && from >= stored) {
      if (skip) {
        const kept: number[] = [];
        for (const [offset, key] of this.keysOf.all(topic, partition, from, to, maxScanned)) {
          if (offset !== next || kept.length >= max) break;
          next += 1;
          if (!skip(key)) kept.push(offset);
        }
        if (kept.length > 0) for (const row of this.valuesOf.all(topic, partition, JSON.stringify(kept))) entries.push(entryOf(row));
      } else {
        for (const row of this.range.all(topic, partition, from, to, Math.min(max, maxScanned))) {
          if (row.offset !== next) break;
          next += 1;
          entries.push(entryOf(row));
        }
      }
    }
    for (const e of this.retentionMs() > 0 ? pending : []) {
      if (full() || e.offset >= to) break;
      if (e.offset < next) continue;
      if (e.offset !== next) break;
      next += 1;
      if (!skip?.(e.key)) entries.push({ offset: e.offset, key: e.key, json: e.json, headers: { ...e.headers } });
    }
    const first = stored ?? (this.retentionMs() > 0 ? pending[0]?.offset : undefined);
    return { first, entries, next };
  }

  private retentionMs(): number {
    const value = this.options.retentionMs();
    return Number.isFinite(value) && value > 0 ? value : 0;
  }
}

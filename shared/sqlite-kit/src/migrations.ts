import type Database from 'better-sqlite3';
import { StoreOpenError } from './store-errors';

/** One schema step: SQL run once, in order, inside a transaction with the version bump. */
export type Migration = string | ((db: Database.Database) => void);

const VERSIONS_TABLE = `CREATE TABLE IF NOT EXISTS schema_versions (
  component TEXT PRIMARY KEY,
  version INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT`;

export function ensureVersionsTable(db: Database.Database): void {
  db.exec(VERSIONS_TABLE);
}

/** The stored schema version of every component (services keep their tables apart by component). */
export function schemaVersions(db: Database.Database): Record<string, number> {
  const rows = db.prepare('SELECT component, version FROM schema_versions').all() as { component: string; version: number }[];
  return Object.fromEntries(rows.map((r) => [r.component, r.version]));
}

/**
 * Brings `component`'s tables to `migrations.length`. A store written by a newer build (a version
 * beyond what this build knows) is refused rather than used: its tables may mean something else.
 */
export function migrate(db: Database.Database, component: string, migrations: readonly Migration[], now = Date.now()): number {
  const current = (db.prepare('SELECT version FROM schema_versions WHERE component = ?').get(component) as { version: number } | undefined)?.version ?? 0;
  if (current > migrations.length) {
    throw new StoreOpenError(
      'schema_too_new',
      `the data directory was written by a newer Switchyard (${component} schema version ${current}, this build knows up to ${migrations.length}); upgrade Switchyard or restore an older backup`,
    );
  }
  if (current === migrations.length) return current;
  const apply = db.transaction(() => {
    for (let version = current + 1; version <= migrations.length; version += 1) {
      const step = migrations[version - 1];
      if (typeof step === 'string') db.exec(step);
      else step?.(db);
    }
    db.prepare(
      'INSERT INTO schema_versions (component, version, updated_at) VALUES (?, ?, ?) ON CONFLICT (component) DO UPDATE SET version = excluded.version, updated_at = excluded.updated_at',
    ).run(component, migrations.length, now);
  });
  apply();
  return migrations.length;
}

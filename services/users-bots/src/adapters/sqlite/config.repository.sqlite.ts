import type { SqliteStore } from '@switchyard/sqlite-kit';
import type { SystemConfig } from '@switchyard/system-config';
import type { ConfigRepository } from '../../domain/ports';

export class SqliteConfigRepository implements ConfigRepository {
  private readonly read;
  private readonly upsert;

  public constructor(private readonly store: SqliteStore) {
    this.read = store.db.prepare<[], { doc: string }>('SELECT doc FROM ub_config WHERE id = 1');
    this.upsert = store.db.prepare('INSERT INTO ub_config (id, doc) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc');
  }

  public async load(): Promise<Record<string, unknown> | undefined> {
    const row = this.read.get();
    return row ? (JSON.parse(row.doc) as Record<string, unknown>) : undefined;
  }

  public async save(config: SystemConfig): Promise<void> {
    await this.store.write(() => this.upsert.run(JSON.stringify(config)));
  }
}

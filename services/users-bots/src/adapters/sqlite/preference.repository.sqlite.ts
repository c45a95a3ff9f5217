import type { Migration, SqliteStore } from '@switchyard/sqlite-kit';
import type { Preference } from '../../domain/preferences/preference';
import type { PreferenceRepository } from '../../domain/preferences/preference-ports';

/** Preferences in the embedded store: their own migration component (apart from users-bots' numbering). */
export const PREFERENCES_COMPONENT = 'users_bots_preferences';

export const PREFERENCES_MIGRATIONS: readonly Migration[] = [
  `
  CREATE TABLE ub_preferences (
    user_id TEXT NOT NULL,
    category TEXT NOT NULL,
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (user_id, category, name)
  ) STRICT;
  CREATE INDEX ub_preferences_name ON ub_preferences (category, name, user_id);
  `,
];

export class SqlitePreferenceRepository implements PreferenceRepository {
  private readonly all;
  private readonly category;
  private readonly one;
  private readonly upsert;
  private readonly remove;

  public constructor(private readonly store: SqliteStore) {
    store.migrate(PREFERENCES_COMPONENT, PREFERENCES_MIGRATIONS);
    const db = store.db;
    this.all = db.prepare<[string], Preference>('SELECT user_id, category, name, value FROM ub_preferences WHERE user_id = ? ORDER BY category, name');
    this.category = db.prepare<[string, string], Preference>('SELECT user_id, category, name, value FROM ub_preferences WHERE user_id = ? AND category = ? ORDER BY name');
    this.one = db.prepare<[string, string, string], Preference>('SELECT user_id, category, name, value FROM ub_preferences WHERE user_id = ? AND category = ? AND name = ?');
    this.upsert = db.prepare<[string, string, string, string]>(
      'INSERT INTO ub_preferences (user_id, category, name, value) VALUES (?, ?, ?, ?) ON CONFLICT (user_id, category, name) DO UPDATE SET value = excluded.value',
    );
    this.remove = db.prepare<[string, string, string]>('DELETE FROM ub_preferences WHERE user_id = ? AND category = ? AND name = ?');
  }

  public async listByUser(userId: string): Promise<Preference[]> {
    return this.all.all(userId);
  }

  public async listByCategory(userId: string, category: string): Promise<Preference[]> {
    return this.category.all(userId, category);
  }

  public async find(userId: string, category: string, name: string): Promise<Preference | undefined> {
    return this.one.get(userId, category, name);
  }

  public async save(preferences: readonly Preference[]): Promise<void> {
    await this.store.writeOne(() => {
      for (const p of preferences) this.upsert.run(p.user_id, p.category, p.name, p.value);
    });
  }

  public async delete(userId: string, category: string, name: string): Promise<boolean> {
    return this.store.writeOne(() => this.remove.run(userId, category, name).changes === 1);
  }

  public async valuesOf(userIds: readonly string[], category: string, name: string): Promise<ReadonlyMap<string, string>> {
    const out = new Map<string, string>();
    for (const id of new Set(userIds)) {
      const p = this.one.get(id, category, name);
      if (p) out.set(id, p.value);
    }
    return out;
  }
}

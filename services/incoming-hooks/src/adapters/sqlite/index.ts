import type { SqliteStore } from '@switchyard/sqlite-kit';
import type { Repositories } from '../../domain/ports';
import { SqliteIdempotencyRepository } from './idempotency.repository.sqlite';
import { SqliteIncomingHookRepository } from './incoming-hook.repository.sqlite';
import { INCOMING_HOOKS_COMPONENT, INCOMING_HOOKS_MIGRATIONS } from './schema.sqlite';

export { SqliteIdempotencyRepository, SqliteIncomingHookRepository, INCOMING_HOOKS_COMPONENT, INCOMING_HOOKS_MIGRATIONS };

/** incoming-hooks' repositories on the embedded SQLite store (its tables created or migrated first). */
export function createSqliteRepositories(store: SqliteStore): Repositories {
  store.migrate(INCOMING_HOOKS_COMPONENT, INCOMING_HOOKS_MIGRATIONS);
  return { hooks: new SqliteIncomingHookRepository(store), idempotency: new SqliteIdempotencyRepository(store) };
}

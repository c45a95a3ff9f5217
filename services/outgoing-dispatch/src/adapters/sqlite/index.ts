import type { SqliteStore } from '@switchyard/sqlite-kit';
import type { Repositories } from '../../domain/ports';
import { SqliteCommandWebhookRepository } from './command-webhook.repository.sqlite';
import { SqliteCommandRepository } from './command.repository.sqlite';
import { SqliteDeliveryRepository } from './delivery.repository.sqlite';
import { SqliteOpenDialogRepository } from './open-dialog.repository.sqlite';
import { SqliteOutgoingHookRepository } from './outgoing-hook.repository.sqlite';
import { OUTGOING_DISPATCH_COMPONENT, OUTGOING_DISPATCH_MIGRATIONS } from './schema.sqlite';

export { SqliteCommandRepository, SqliteCommandWebhookRepository, SqliteDeliveryRepository, SqliteOutgoingHookRepository, OUTGOING_DISPATCH_COMPONENT, OUTGOING_DISPATCH_MIGRATIONS };

/** outgoing-dispatch's repositories on the embedded SQLite store (its tables created or migrated first). */
export function createSqliteRepositories(store: SqliteStore): Repositories {
  store.migrate(OUTGOING_DISPATCH_COMPONENT, OUTGOING_DISPATCH_MIGRATIONS);
  return {
    hooks: new SqliteOutgoingHookRepository(store),
    deliveries: new SqliteDeliveryRepository(store),
    commands: new SqliteCommandRepository(store),
    commandWebhooks: new SqliteCommandWebhookRepository(store),
    dialogs: new SqliteOpenDialogRepository(store),
  };
}

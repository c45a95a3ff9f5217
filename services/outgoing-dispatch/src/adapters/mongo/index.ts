import type { Connection } from '@switchyard/mongo-kit';
import type { Repositories } from '../../domain/ports';
import { MongoCommandRepository, MongoCommandWebhookRepository } from './command.repository.mongo';
import { COMMAND_WEBHOOKS_COLLECTION, COMMANDS_COLLECTION, commandModel, commandWebhookModel } from './command.schema.mongo';
import { MongoDeliveryRepository } from './delivery.repository.mongo';
import { DELIVERIES_COLLECTION, deliveryModel } from './delivery.schema.mongo';
import { MongoOpenDialogRepository } from './open-dialog.repository.mongo';
import { OPEN_DIALOGS_COLLECTION, openDialogModel } from './open-dialog.schema.mongo';
import { MongoOutgoingHookRepository } from './outgoing-hook.repository.mongo';
import { OUTGOING_HOOKS_COLLECTION, outgoingHookModel } from './outgoing-hook.schema.mongo';

export { MongoCommandRepository, MongoCommandWebhookRepository, MongoDeliveryRepository, MongoOpenDialogRepository, MongoOutgoingHookRepository };

export const OUTGOING_DISPATCH_COLLECTIONS = {
  hooks: OUTGOING_HOOKS_COLLECTION,
  deliveries: DELIVERIES_COLLECTION,
  commands: COMMANDS_COLLECTION,
  commandWebhooks: COMMAND_WEBHOOKS_COLLECTION,
  dialogs: OPEN_DIALOGS_COLLECTION,
} as const;

/**
 * The service's repositories on a mongoose connection (opened and closed by the composition root).
 * Resolves once the indexes exist (createIndexes: idempotent, never drops anything).
 */
export async function createOutgoingDispatchMongoRepositories(connection: Connection): Promise<Repositories> {
  const hooks = outgoingHookModel(connection);
  const deliveries = deliveryModel(connection);
  const commands = commandModel(connection);
  const commandWebhooks = commandWebhookModel(connection);
  const dialogs = openDialogModel(connection);
  await Promise.all([hooks.createIndexes(), deliveries.createIndexes(), commands.createIndexes(), commandWebhooks.createIndexes(), dialogs.createIndexes()]);
  return {
    hooks: new MongoOutgoingHookRepository(hooks),
    deliveries: new MongoDeliveryRepository(deliveries),
    commands: new MongoCommandRepository(commands),
    commandWebhooks: new MongoCommandWebhookRepository(commandWebhooks),
    dialogs: new MongoOpenDialogRepository(dialogs),
  };
}

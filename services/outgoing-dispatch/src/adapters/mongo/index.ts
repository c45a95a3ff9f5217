import type { Connection } from '@switchyard/mongo-kit';
import type { Repositories } from '../../domain/ports';
import { MongoDeliveryRepository } from './delivery.repository.mongo';
import { DELIVERIES_COLLECTION, deliveryModel } from './delivery.schema.mongo';
import { MongoOutgoingHookRepository } from './outgoing-hook.repository.mongo';
import { OUTGOING_HOOKS_COLLECTION, outgoingHookModel } from './outgoing-hook.schema.mongo';

export { MongoDeliveryRepository, MongoOutgoingHookRepository };

export const OUTGOING_DISPATCH_COLLECTIONS = { hooks: OUTGOING_HOOKS_COLLECTION, deliveries: DELIVERIES_COLLECTION } as const;

/**
 * The service's repositories on a mongoose connection (opened and closed by the composition root).
 * Resolves once the indexes exist (createIndexes: idempotent, never drops anything).
 */
export async function createOutgoingDispatchMongoRepositories(connection: Connection): Promise<Repositories> {
  const hooks = outgoingHookModel(connection);
  const deliveries = deliveryModel(connection);
  await hooks.createIndexes();
  await deliveries.createIndexes();
  return { hooks: new MongoOutgoingHookRepository(hooks), deliveries: new MongoDeliveryRepository(deliveries) };
}

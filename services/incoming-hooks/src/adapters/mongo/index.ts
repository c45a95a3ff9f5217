import type { Connection } from '@switchyard/mongo-kit';
import type { Repositories } from '../../domain/ports';
import { MongoIdempotencyRepository } from './idempotency.repository.mongo';
import { idempotencyModel, IDEMPOTENCY_COLLECTION } from './idempotency.schema.mongo';
import { MongoIncomingHookRepository } from './incoming-hook.repository.mongo';
import { incomingHookModel, INCOMING_HOOKS_COLLECTION } from './incoming-hook.schema.mongo';

export const INCOMING_HOOKS_COLLECTIONS = [INCOMING_HOOKS_COLLECTION, IDEMPOTENCY_COLLECTION] as const;

/**
 * The service's repositories on a mongoose connection (owned and closed by the caller). Resolves once
 * the indexes exist (createIndexes: idempotent, drops nothing).
 */
export async function createIncomingHooksMongoRepositories(connection: Connection): Promise<Repositories> {
  const hooks = incomingHookModel(connection);
  const idempotency = idempotencyModel(connection);
  await hooks.createIndexes();
  await idempotency.createIndexes();
  return { hooks: new MongoIncomingHookRepository(hooks), idempotency: new MongoIdempotencyRepository(idempotency) };
}

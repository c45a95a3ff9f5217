import type { Repositories } from '../../domain/ports';
import { MemoryDeliveryRepository } from './delivery.repository.memory';
import { MemoryOutgoingHookRepository } from './outgoing-hook.repository.memory';

export { MemoryDeliveryRepository, MemoryOutgoingHookRepository };

/** The in-process repositories (embedded runtime and unit tests). */
export function memoryRepositories(): Repositories {
  return { hooks: new MemoryOutgoingHookRepository(), deliveries: new MemoryDeliveryRepository() };
}

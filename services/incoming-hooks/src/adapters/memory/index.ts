import type { Repositories } from '../../domain/ports';
import { MemoryIdempotencyRepository } from './idempotency.repository.memory';
import { MemoryIncomingHookRepository } from './incoming-hook.repository.memory';

export { MemoryIdempotencyRepository, MemoryIncomingHookRepository };

export function memoryRepositories(): Repositories {
  return { hooks: new MemoryIncomingHookRepository(), idempotency: new MemoryIdempotencyRepository() };
}

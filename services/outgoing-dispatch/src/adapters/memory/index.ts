import type { Repositories } from '../../domain/ports';
import { MemoryCommandWebhookRepository } from './command-webhook.repository.memory';
import { MemoryCommandRepository } from './command.repository.memory';
import { MemoryDeliveryRepository } from './delivery.repository.memory';
import { MemoryOpenDialogRepository } from './open-dialog.repository.memory';
import { MemoryOutgoingHookRepository } from './outgoing-hook.repository.memory';

export { MemoryCommandRepository, MemoryCommandWebhookRepository, MemoryDeliveryRepository, MemoryOpenDialogRepository, MemoryOutgoingHookRepository };

/** The in-process repositories (embedded runtime and unit tests). */
export function memoryRepositories(): Repositories {
  return {
    hooks: new MemoryOutgoingHookRepository(),
    deliveries: new MemoryDeliveryRepository(),
    commands: new MemoryCommandRepository(),
    commandWebhooks: new MemoryCommandWebhookRepository(),
    dialogs: new MemoryOpenDialogRepository(),
  };
}

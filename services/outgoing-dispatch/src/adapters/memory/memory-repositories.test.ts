import { commandRepositoryContract } from '../contracts/command-repository.contract';
import { commandWebhookRepositoryContract } from '../contracts/command-webhook-repository.contract';
import { deliveryRepositoryContract } from '../contracts/delivery-repository.contract';
import { openDialogRepositoryContract } from '../contracts/open-dialog-repository.contract';
import { outgoingHookRepositoryContract } from '../contracts/outgoing-hook-repository.contract';
import { MemoryCommandRepository, MemoryCommandWebhookRepository, MemoryDeliveryRepository, MemoryOpenDialogRepository, MemoryOutgoingHookRepository } from './index';

outgoingHookRepositoryContract('memory', async () => new MemoryOutgoingHookRepository());
deliveryRepositoryContract('memory', async () => new MemoryDeliveryRepository());
commandRepositoryContract('memory', async () => new MemoryCommandRepository());
commandWebhookRepositoryContract('memory', async () => new MemoryCommandWebhookRepository());
openDialogRepositoryContract('memory', async () => new MemoryOpenDialogRepository());

import { deliveryRepositoryContract } from '../contracts/delivery-repository.contract';
import { outgoingHookRepositoryContract } from '../contracts/outgoing-hook-repository.contract';
import { MemoryDeliveryRepository, MemoryOutgoingHookRepository } from './index';

outgoingHookRepositoryContract('memory', async () => new MemoryOutgoingHookRepository());
deliveryRepositoryContract('memory', async () => new MemoryDeliveryRepository());

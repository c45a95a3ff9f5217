import { describe } from 'node:test';
import { idempotencyRepositoryContract, incomingHookRepositoryContract } from '../contracts/repository-contracts';
import { MemoryIdempotencyRepository, MemoryIncomingHookRepository } from './index';

describe('MemoryIncomingHookRepository', () => incomingHookRepositoryContract(async () => new MemoryIncomingHookRepository()));
describe('MemoryIdempotencyRepository', () => idempotencyRepositoryContract(async () => new MemoryIdempotencyRepository()));

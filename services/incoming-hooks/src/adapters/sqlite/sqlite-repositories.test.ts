import { after, describe } from 'node:test';
import { freshRepositories } from '@switchyard/sqlite-kit';
import { idempotencyRepositoryContract, incomingHookRepositoryContract } from '../contracts/repository-contracts';
import { createSqliteRepositories } from './index';

// Each contract test gets its own store in a fresh temporary directory (no server needed).
const { fresh, disposeAll } = freshRepositories('incoming-hooks-sqlite-', createSqliteRepositories);
after(disposeAll);

describe('SqliteIncomingHookRepository', () => incomingHookRepositoryContract(fresh('hooks')));
describe('SqliteIdempotencyRepository', () => idempotencyRepositoryContract(fresh('idempotency')));

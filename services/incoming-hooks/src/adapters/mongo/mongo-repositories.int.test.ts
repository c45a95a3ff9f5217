import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { randomBytes } from 'node:crypto';
import { connectMongo, type Connection } from '@switchyard/mongo-kit';
import type { Repositories } from '../../domain/ports';
import { idempotencyRepositoryContract, incomingHookRepositoryContract } from '../contracts/repository-contracts';
import { IDEMPOTENCY_COLLECTION } from './idempotency.schema.mongo';
import { createIncomingHooksMongoRepositories, INCOMING_HOOKS_COLLECTIONS } from './index';

const url = process.env.MONGO_URL;

describe('incoming-hooks repositories on MongoDB', { skip: !url && 'MONGO_URL not set: run deploy/local/up.sh' }, () => {
  const dbName = `incoming_hooks_it_${randomBytes(6).toString('hex')}`;
  let connection: Connection | undefined;
  let repositories: Repositories | undefined;

  before(async () => {
    connection = await connectMongo({ url: url ?? '', dbName, serverSelectionTimeoutMs: 5_000 });
    repositories = await createIncomingHooksMongoRepositories(connection);
  });

  after(async () => {
    if (!connection) return;
    await connection.dropDatabase().catch(() => undefined);
    await connection.close();
  });

  const fresh = async <K extends keyof Repositories>(name: K): Promise<Repositories[K]> => {
    if (!connection || !repositories) throw new Error('not connected');
    for (const collection of INCOMING_HOOKS_COLLECTIONS) await connection.collection(collection).deleteMany({});
    return repositories[name];
  };

  describe('MongoIncomingHookRepository', () => incomingHookRepositoryContract(() => fresh('hooks')));
  describe('MongoIdempotencyRepository', () => idempotencyRepositoryContract(() => fresh('idempotency')));

  test('when a keyed hook completes, then its filter ({ _id, owner }) has a unique index of exactly its fields (emulators scan the whole collection otherwise)', async () => {
    if (!connection) throw new Error('not connected');
    const indexes = (await connection.collection(IDEMPOTENCY_COLLECTION).indexes()) as { key: Record<string, unknown>; unique?: boolean }[];
    assert.equal(indexes.find((index) => JSON.stringify(index.key) === JSON.stringify({ _id: 1, owner: 1 }))?.unique, true);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { randomBytes } from 'node:crypto';
import { connectMongo, type Connection } from '@switchyard/mongo-kit';
import type { Repositories } from '../../domain/ports';
import { commandRepositoryContract } from '../contracts/command-repository.contract';
import { commandWebhookRepositoryContract } from '../contracts/command-webhook-repository.contract';
import { deliveryRepositoryContract } from '../contracts/delivery-repository.contract';
import { openDialogRepositoryContract } from '../contracts/open-dialog-repository.contract';
import { outgoingHookRepositoryContract } from '../contracts/outgoing-hook-repository.contract';
import { createOutgoingDispatchMongoRepositories, OUTGOING_DISPATCH_COLLECTIONS } from './index';

const url = process.env.MONGO_URL;

describe('outgoing-dispatch repositories on MongoDB', { skip: !url && 'MONGO_URL not set: run deploy/local/up.sh' }, () => {
  const dbName = `outgoing_it_${randomBytes(6).toString('hex')}`;
  let connection: Connection | undefined;
  let repositories: Repositories | undefined;

  before(async () => {
    connection = await connectMongo({ url: url ?? '', dbName, serverSelectionTimeoutMs: 5_000 });
    repositories = await createOutgoingDispatchMongoRepositories(connection);
  });

  after(async () => {
    if (!connection) return;
    await connection.dropDatabase();
    await connection.close();
  });

  const fresh =
    <K extends keyof Repositories>(key: K) =>
    async (): Promise<Repositories[K]> => {
      if (!connection || !repositories) throw new Error('MongoDB not connected (see the before hook)');
      await connection.collection(OUTGOING_DISPATCH_COLLECTIONS[key]).deleteMany({});
      return repositories[key];
    };

  outgoingHookRepositoryContract('mongo', fresh('hooks'));
  deliveryRepositoryContract('mongo', fresh('deliveries'));
  commandRepositoryContract('mongo', fresh('commands'));
  commandWebhookRepositoryContract('mongo', fresh('commandWebhooks'));
  openDialogRepositoryContract('mongo', fresh('dialogs'));

  test('when deliveries are finished, then the filter ({ _id, claimedBy }) has a unique index of exactly its fields (emulators scan the whole collection otherwise)', async () => {
    if (!connection) throw new Error('MongoDB not connected (see the before hook)');
    const indexes = (await connection.collection(OUTGOING_DISPATCH_COLLECTIONS.deliveries).indexes()) as { key: Record<string, unknown>; unique?: boolean }[];
    const finishIndex = indexes.find((index) => JSON.stringify(index.key) === JSON.stringify({ _id: 1, claimedBy: 1 }));
    assert.equal(finishIndex?.unique, true);
  });
});

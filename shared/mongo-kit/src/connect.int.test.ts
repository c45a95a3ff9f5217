import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connectMongo } from './connect';

// Real MongoDB-wire server (deploy/local): MONGO_URL from deploy/local/.env.
const url = process.env.MONGO_URL;

/** MONGO_URL with a query string added (the base has none or one). */
const withQuery = (base: string, query: string): string => `${base}${base.includes('?') ? '&' : '?'}${query}`;

test('when MONGO_URL says nothing, then retryable writes are on (the driver default, ADR 0025); retryWrites=false in the URL turns them off', { skip: url === undefined ? 'MONGO_URL not set' : false }, async () => {
  const base = url as string;
  const dbName = `mongo_kit_retry_${process.pid}`;
  const plain = await connectMongo({ url: base, dbName });
  const off = await connectMongo({ url: withQuery(base, 'retryWrites=false'), dbName });
  try {
    assert.equal(plain.getClient().options.retryWrites, true);
    assert.equal(off.getClient().options.retryWrites, false);
    // Writes work either way on this server.
    await plain.db!.collection('probe').insertOne({ n: 1 });
    await off.db!.collection('probe').updateOne({ n: 1 }, { $set: { m: 2 } });
    assert.equal(await plain.db!.collection('probe').countDocuments({ m: 2 }), 1);
  } finally {
    await plain.db?.dropDatabase().catch(() => undefined);
    await plain.close();
    await off.close();
  }
});

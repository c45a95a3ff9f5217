import mongoose, { type Connection } from 'mongoose';
import { observeStoreOperation } from '@switchyard/metrics';

export interface MongoOptions {
  readonly url: string;
  /** Each service owns its own database (collections are never shared between services). */
  readonly dbName: string;
  readonly serverSelectionTimeoutMs?: number;
  /** Label of the store-latency metric (command monitoring); default: no metrics. */
  readonly service?: string;
}

/**
 * Opens a dedicated mongoose connection (never the global one) for one service. Options stay within
 * what MongoDB-wire emulators accept (no serverApi, no transactions). Retryable writes follow MONGO_URL
 * (`retryWrites=false` turns them off), else the driver's default, on (ADR 0025): on a replica set a write
 * that meets a primary election is retried once on the new primary instead of failing with a 503; a
 * standalone server (mongo-java-server, FerretDB) never sees the retry fields.
 */
export async function connectMongo(options: MongoOptions): Promise<Connection> {
  const connection = mongoose.createConnection(options.url, {
    dbName: options.dbName,
    serverSelectionTimeoutMS: options.serverSelectionTimeoutMs ?? 10_000,
    autoIndex: true,
    maxPoolSize: 20,
    monitorCommands: options.service !== undefined,
  });
  await connection.asPromise();
  const service = options.service;
  if (service !== undefined) {
    // Driver command monitoring: every command's name and duration (ms), never its filter or documents.
    const client = connection.getClient();
    client.on('commandSucceeded', (event) => observeStoreOperation(service, 'mongo', event.commandName, true, event.duration / 1000));
    client.on('commandFailed', (event) => observeStoreOperation(service, 'mongo', event.commandName, false, event.duration / 1000));
  }
  return connection;
}

/** Whether the connection answers a ping, for readiness probes. */
export async function mongoHealthy(connection: Connection): Promise<boolean> {
  try {
    const db = connection.db;
    if (!db) return false;
    await db.admin().command({ ping: 1 });
    return true;
  } catch {
    return false;
  }
}

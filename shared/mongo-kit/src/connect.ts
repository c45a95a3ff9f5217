import mongoose, { type Connection } from 'mongoose';

export interface MongoOptions {
  readonly url: string;
  /** Each service owns its own database (collections are never shared between services). */
  readonly dbName: string;
  readonly serverSelectionTimeoutMs?: number;
}

/**
 * Opens a dedicated mongoose connection (never the global one) for one service. Options stay within
 * what MongoDB-wire emulators accept (no serverApi, no transactions).
 */
export async function connectMongo(options: MongoOptions): Promise<Connection> {
  const connection = mongoose.createConnection(options.url, {
    dbName: options.dbName,
    serverSelectionTimeoutMS: options.serverSelectionTimeoutMs ?? 10_000,
    autoIndex: true,
    maxPoolSize: 20,
    retryWrites: false,
  });
  await connection.asPromise();
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

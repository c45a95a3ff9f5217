import { join, resolve } from 'node:path';
import { Redis } from 'ioredis';
import { Kafka, logLevel } from 'kafkajs';
import { connectMongo } from '@switchyard/mongo-kit';
import { readEnvFile } from './env-file';

/**
 * `node apps/launcher/dist/cleanup.js <run-id>`: removes what a test run of the distributed runtime left
 * on the shared servers: topics `<run-id>.*` (KAFKA_NAMESPACE), databases `<run-id>_*` (MONGO_DB_PREFIX)
 * and Redis keys `<run-id>:*` (REDIS_KEY_PREFIX). Refuses ids that could match other deployments' names.
 */
async function cleanup(runId: string): Promise<void> {
  if (!/^[A-Za-z0-9]{6,40}$/.test(runId)) throw new Error(`run id must be 6-40 letters or digits, got "${runId}"`);
  const root = resolve(__dirname, '../../..');
  const env: NodeJS.ProcessEnv = { ...readEnvFile(join(root, 'deploy/local/.env')), ...process.env };
  const done: string[] = [];

  if (env.KAFKA_BROKERS) {
    const admin = new Kafka({ clientId: 'switchyard-cleanup', brokers: env.KAFKA_BROKERS.split(','), logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      const topics = (await admin.listTopics()).filter((t) => t.startsWith(`${runId}.`));
      if (topics.length > 0) await admin.deleteTopics({ topics, timeout: 30_000 });
      const groups = (await admin.listGroups()).groups.map((g) => g.groupId).filter((g) => g.startsWith(`${runId}.`));
      if (groups.length > 0) await admin.deleteGroups(groups).catch(() => undefined);
      done.push(`${topics.length} topics, ${groups.length} consumer groups`);
    } finally {
      await admin.disconnect();
    }
  }
  if (env.MONGO_URL) {
    const connection = await connectMongo({ url: env.MONGO_URL, dbName: 'admin', serverSelectionTimeoutMs: 5_000 });
    try {
      const { databases } = await connection.db!.admin().listDatabases();
      const names = databases.map((d) => d.name).filter((n) => n.startsWith(`${runId}_`));
      for (const name of names) await connection.useDb(name, { useCache: false }).dropDatabase();
      done.push(`${names.length} databases`);
    } finally {
      await connection.close();
    }
  }
  if (env.REDIS_URL) {
    const redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: 1 });
    try {
      let removed = 0;
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${runId}:*`, 'COUNT', 500);
        cursor = next;
        if (keys.length > 0) removed += await redis.del(...keys);
      } while (cursor !== '0');
      done.push(`${removed} Redis keys`);
    } finally {
      await redis.quit();
    }
  }
  process.stdout.write(`cleanup ${runId}: removed ${done.join(', ')}\n`);
}

cleanup(process.argv[2] ?? '').catch((error: unknown) => {
  process.stderr.write(`cleanup failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

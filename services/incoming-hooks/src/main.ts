import { main } from '@switchyard/service-runtime';
import { createIncomingHooksMongoRepositories } from './adapters/mongo';
import { createIncomingHooksApp, SERVICE_NAME } from './app';
import { loadIncomingHooksConfig } from './config';

/**
 * incoming-hooks as its own process. The runtime reads the env (the only reader of process.env) and opens the bus
 * (Kafka when KAFKA_BROKERS is set), the HTTP transport to SERVICE_URLS, MongoDB (MONGO_URL, MONGO_DB) and
 * Redis (REDIS_URL). With MongoDB, the mongoose repositories (indexes created before the first request);
 * without it, the memory ones. With Redis, the per-hook rate limit is shared by every replica.
 */
main({
  name: SERVICE_NAME,
  defaultPort: 8068,
  loadConfig: loadIncomingHooksConfig,
  build: async ({ logger, bus, transport, mongo, redis }, config) =>
    createIncomingHooksApp(config, {
      logger,
      bus,
      transport,
      ...(mongo ? { repositories: await createIncomingHooksMongoRepositories(mongo) } : {}),
      ...(redis ? { redis } : {}),
    }),
});

import { main } from '@switchyard/service-runtime';
import { createMongoRepositories } from './adapters/mongo';
import { createApp, SERVICE_NAME } from './app';
import { loadUsersBotsConfig } from './config';

/**
 * users-bots as its own process. The runtime reads the env (the only reader of process.env) and opens
 * the bus (Kafka when KAFKA_BROKERS is set) and MongoDB (MONGO_URL, MONGO_DB): with it, the mongoose
 * repositories (indexes created before the first request); without it, the memory ones.
 */
main({
  name: SERVICE_NAME,
  defaultPort: 8066,
  uses: { mongo: true, redis: false },
  loadConfig: loadUsersBotsConfig,
  build: async ({ logger, bus, transport, mongo }, config) =>
    createApp(config, {
      logger,
      bus,
      transport,
      ...(mongo ? { repositories: await createMongoRepositories(mongo) } : {}),
    }),
});

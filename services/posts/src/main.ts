import { main } from '@switchyard/service-runtime';
import { createPostsMongoRepositories } from './adapters/mongo';
import { createPostsApp, SERVICE_NAME } from './app';
import { loadPostsConfig } from './config';

/**
 * posts as its own process. The runtime reads the env (the only reader of process.env) and opens the bus
 * (Kafka when KAFKA_BROKERS is set), the HTTP transport to SERVICE_URLS and MongoDB (MONGO_URL, MONGO_DB);
 * it uses no Redis. With MongoDB, the mongoose repositories (indexes created before the first request);
 * without it, the memory ones.
 */
main({
  name: SERVICE_NAME,
  defaultPort: 8067,
  uses: { mongo: true, redis: false },
  loadConfig: loadPostsConfig,
  build: async ({ logger, bus, transport, mongo }, config) =>
    createPostsApp(config, {
      logger,
      bus,
      transport,
      ...(mongo ? { repositories: await createPostsMongoRepositories(mongo, { logger }) } : {}),
    }),
});

import { main } from '@switchyard/service-runtime';
import { createPostsApp, SERVICE_NAME } from './app';
import { loadPostsConfig } from './config';

/**
 * posts as its own process. The runtime reads the env (the only reader of process.env) and opens the bus
 * (Kafka when KAFKA_BROKERS is set), the HTTP transport to SERVICE_URLS, MongoDB (MONGO_URL) and Redis
 * (REDIS_URL). Repositories: memory until the service exports its MongoDB adapters.
 */
main({
  name: SERVICE_NAME,
  defaultPort: 8067,
  loadConfig: loadPostsConfig,
  build: ({ logger, bus, transport }, config) => createPostsApp(config, { logger, bus, transport }),
});

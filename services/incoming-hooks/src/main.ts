import { main } from '@switchyard/service-runtime';
import { createIncomingHooksApp, SERVICE_NAME } from './app';
import { loadIncomingHooksConfig } from './config';

/**
 * incoming-hooks as its own process. The runtime reads the env (the only reader of process.env) and opens the bus
 * (Kafka when KAFKA_BROKERS is set), the HTTP transport to SERVICE_URLS, MongoDB (MONGO_URL) and Redis
 * (REDIS_URL). Repositories: memory until the service exports its MongoDB adapters.
 */
main({
  name: SERVICE_NAME,
  defaultPort: 8068,
  loadConfig: loadIncomingHooksConfig,
  build: ({ logger, bus, transport }, config) => createIncomingHooksApp(config, { logger, bus, transport }),
});

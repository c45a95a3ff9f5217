import { main } from '@switchyard/service-runtime';
import { createOutgoingDispatchApp, SERVICE_NAME } from './app';
import { loadOutgoingDispatchConfig } from './config';

/**
 * outgoing-dispatch as its own process. The runtime reads the env (the only reader of process.env) and opens the bus
 * (Kafka when KAFKA_BROKERS is set), the HTTP transport to SERVICE_URLS, MongoDB (MONGO_URL) and Redis
 * (REDIS_URL). Repositories: memory until the service exports its MongoDB adapters.
 */
main({
  name: SERVICE_NAME,
  defaultPort: 8069,
  loadConfig: loadOutgoingDispatchConfig,
  build: ({ logger, bus, transport }, config) => createOutgoingDispatchApp(config, { logger, bus, transport }),
});

import { main } from '@switchyard/service-runtime';
import { createOutgoingDispatchMongoRepositories } from './adapters/mongo';
import { createOutgoingDispatchApp, SERVICE_NAME } from './app';
import { loadOutgoingDispatchConfig } from './config';

/**
 * outgoing-dispatch as its own process. The runtime reads the env (the only reader of process.env) and opens the bus
 * (Kafka when KAFKA_BROKERS is set), the HTTP transport to SERVICE_URLS and MongoDB (MONGO_URL, MONGO_DB);
 * it uses no Redis. With MongoDB, the mongoose repositories (indexes created before the first request);
 * without it, the memory ones.
 */
main({
  name: SERVICE_NAME,
  defaultPort: 8069,
  uses: { mongo: true, redis: false },
  loadConfig: loadOutgoingDispatchConfig,
  build: async ({ logger, bus, transport, mongo }, config) =>
    createOutgoingDispatchApp(config, {
      logger,
      bus,
      transport,
      ...(mongo ? { repositories: await createOutgoingDispatchMongoRepositories(mongo) } : {}),
    }),
});

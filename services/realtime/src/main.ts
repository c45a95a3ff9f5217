import { main } from '@switchyard/service-runtime';
import { createRealtimeApp, SERVICE_NAME } from './app';
import { loadRealtimeConfig } from './config';

/**
 * realtime as its own process: the WebSocket API behind the gateway's upgrade proxy. It owns no data
 * (neither MongoDB nor Redis): connections live in memory, events come from Kafka.
 */
main({
  name: SERVICE_NAME,
  defaultPort: 8070,
  uses: { mongo: false, redis: false },
  loadConfig: loadRealtimeConfig,
  build: ({ logger, bus, transport }, config) => createRealtimeApp(config, { logger, bus, transport }),
});

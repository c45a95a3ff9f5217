import { main } from '@switchyard/service-runtime';
import { createRealtimeApp, SERVICE_NAME } from './app';
import { loadRealtimeConfig } from './config';

/**
 * realtime as its own process: the WebSocket API behind the gateway's upgrade proxy. It owns no data in
 * MongoDB: connections live in memory, events come from Kafka; with REDIS_URL, who is online is shared
 * with the other replicas in Redis (statuses).
 */
main({
  name: SERVICE_NAME,
  defaultPort: 8070,
  uses: { mongo: false },
  loadConfig: loadRealtimeConfig,
  build: ({ logger, bus, transport, redis, runtime }, config) =>
    createRealtimeApp(config, { logger, bus, transport, ...(redis ? { redis: { client: redis, keyPrefix: runtime.REDIS_KEY_PREFIX } } : {}) }),
});

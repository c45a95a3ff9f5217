import { main } from '@switchyard/service-runtime';
import { RedisRateLimiter, RedisTokenCache } from './adapters/redis';
import { createGatewayApp } from './app';
import { loadGatewayConfig } from './config';

/**
 * The gateway as its own process (distributed runtime). The runtime reads the env and opens the bus
 * (Kafka when KAFKA_BROKERS is set), the HTTP transport to SERVICE_URLS and Redis (REDIS_URL): with Redis,
 * the token cache and the rate-limit buckets are shared by every gateway replica.
 */
main({
  name: 'gateway',
  defaultPort: 8065,
  uses: { mongo: false, redis: true },
  loadConfig: loadGatewayConfig,
  build: ({ logger, bus, transport, redis, runtime }, config) =>
    createGatewayApp(config, {
      logger,
      bus,
      transport,
      services: Object.keys(config.SERVICE_URLS),
      ...(redis
        ? {
            tokenCache: new RedisTokenCache({ redis, keyPrefix: runtime.REDIS_KEY_PREFIX }),
            rateLimiter: new RedisRateLimiter({ redis, keyPrefix: runtime.REDIS_KEY_PREFIX }),
          }
        : {}),
    }),
});

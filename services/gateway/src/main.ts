import { main } from '@switchyard/service-runtime';
import { RedisRateLimiter, RedisTokenCache } from './adapters/redis';
import { TieredTokenCache } from './adapters/cache/tiered-token-cache';
import { openFilesLimit, waitingPollsFor } from './adapters/open-files';
import { createGatewayApp } from './app';
import { loadGatewayConfig, type GatewayConfig } from './config';
import type { TokenCache } from './domain/ports';

/** The shared (Redis) token cache, behind an in-process layer unless TOKEN_CACHE_LOCAL_TTL_MS is 0. */
function tokenCacheOver(shared: RedisTokenCache, config: GatewayConfig): TokenCache {
  if (config.TOKEN_CACHE_LOCAL_TTL_MS <= 0) return shared;
  return new TieredTokenCache({ shared, localTtlMs: config.TOKEN_CACHE_LOCAL_TTL_MS, maxEntries: config.TOKEN_CACHE_MAX_ENTRIES });
}

/**
 * The gateway as its own process (distributed runtime). The runtime reads the env and opens the bus
 * (Kafka when KAFKA_BROKERS is set), the HTTP transport to SERVICE_URLS and Redis (REDIS_URL): with Redis,
 * the token cache and the rate-limit buckets are shared by every gateway replica, and each replica keeps a
 * hot session in process for TOKEN_CACHE_LOCAL_TTL_MS (evicted with the shared one).
 */
main({
  name: 'gateway',
  defaultPort: 8065,
  uses: { mongo: false, redis: true },
  // Redis down: the token cache falls back to users-bots, rate limits fail open; the gateway stays ready (ADR 0025).
  readyWithoutRedis: true,
  loadConfig: loadGatewayConfig,
  build: ({ logger, bus, transport, redis, runtime }, config) =>
    createGatewayApp(config, {
      logger,
      bus,
      transport,
      services: Object.keys(config.SERVICE_URLS),
      // Each held long-poll takes two sockets here (client, realtime): no more than the open-files limit allows.
      maxWaitingPolls: config.LONG_POLL_MAX_WAITING ?? waitingPollsFor(openFilesLimit()),
      ...(redis
        ? {
            tokenCache: tokenCacheOver(new RedisTokenCache({ redis, keyPrefix: runtime.REDIS_KEY_PREFIX }), config),
            rateLimiter: new RedisRateLimiter({ redis, keyPrefix: runtime.REDIS_KEY_PREFIX }),
          }
        : {}),
    }),
});

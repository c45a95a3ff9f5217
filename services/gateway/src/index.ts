export { createGatewayApp, type GatewayApp, type GatewayDeps } from './app';
export { loadGatewayConfig, type GatewayConfig } from './config';
export type { TokenCache, RateLimiter, RatePolicy, RateDecision, SessionSource } from './domain/ports';
export { MemoryTokenCache } from './adapters/memory/token-cache.memory';
export { createMemoryRateLimiter } from './adapters/memory/rate-limiter.memory';
export { GcraRateLimiter, type TatStoreFactory } from './adapters/rate-limit/gcra.rate-limiter';
export { ROUTE_TABLE, type RouteRule } from './domain/route-table';

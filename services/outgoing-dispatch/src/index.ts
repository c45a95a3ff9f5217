export { createOutgoingDispatchApp, SERVICE_NAME, type OutgoingDispatchApp, type OutgoingDispatchDeps } from './app';
export { loadOutgoingDispatchConfig, outgoingDispatchEnvSchema, type OutgoingDispatchConfig } from './config';
export { memoryRepositories } from './adapters/memory';
export { createSqliteRepositories as createOutgoingDispatchSqliteRepositories } from './adapters/sqlite';
export { createOutgoingDispatchMongoRepositories, OUTGOING_DISPATCH_COLLECTIONS } from './adapters/mongo';
export type { Resolver } from './adapters/http/ssrf-guard';
export type { Repositories, OutgoingHookRepository, DeliveryRepository, Clock, IntegrationClient, Platform } from './domain/ports';
export type { OutgoingHook, Delivery, DeliveryStatus } from './domain/entities';

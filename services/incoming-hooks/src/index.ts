export { createIncomingHooksApp, SERVICE_NAME, type IncomingHooksApp, type IncomingHooksDeps } from './app';
export { loadIncomingHooksConfig, incomingHooksEnvSchema, type IncomingHooksConfig } from './config';
export { createIncomingHooksMongoRepositories, INCOMING_HOOKS_COLLECTIONS } from './adapters/mongo';
export { memoryRepositories as createIncomingHooksMemoryRepositories } from './adapters/memory';
export { createSqliteRepositories as createIncomingHooksSqliteRepositories } from './adapters/sqlite';
export type { Repositories as IncomingHooksRepositories } from './domain/ports';

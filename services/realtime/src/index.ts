export { createRealtimeApp, SERVICE_NAME, type RealtimeApp, type RealtimeDeps } from './app';
export { loadRealtimeConfig, realtimeEnvSchema, type RealtimeConfig } from './config';
export { MemoryDirectory } from './adapters/memory/directory.memory';
export { SqliteStatusStore, REALTIME_COMPONENT, REALTIME_MIGRATIONS } from './adapters/sqlite/status-store.sqlite';

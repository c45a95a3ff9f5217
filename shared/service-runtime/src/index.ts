export { runService, main, type RunServiceOptions, type RunningService, type RunnableApp } from './run-service';
export { buildInfra, topicsToEnsure, type Infra, type OwnedInfra } from './infra';
export { loadRuntimeConfig, loadAllConfig, parseServiceUrls, parseTopicPartitions, type RuntimeConfig } from './runtime-config';
export type { Redis } from 'ioredis';
export { NamespacedEventBus } from './namespaced-event-bus';

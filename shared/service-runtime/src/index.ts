export { runService, main, type RunServiceOptions, type RunningService, type RunnableApp } from './run-service';
export { buildInfra, topicsToEnsure, type Infra, type OwnedInfra } from './infra';
export { loadRuntimeConfig, loadAllConfig, parseServiceUrls, parseTopicPartitions, parseTopicRetention, type RuntimeConfig } from './runtime-config';
export { kafkaSettings, kafkaSettingsSchema, type KafkaSettings, type RawKafkaSettings } from './kafka-settings';
export { isPlaceholder, productionSecretProblems, MIN_PRODUCTION_SECRET_LENGTH } from './secret-guard';
export type { Redis } from 'ioredis';
export { NamespacedEventBus } from './namespaced-event-bus';

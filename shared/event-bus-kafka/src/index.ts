export { KafkaEventBus, type KafkaEventBusOptions, type KafkaRequestInfo, type KafkaSaslOptions, type KafkaTlsOptions, type TopicSpec } from './kafka-event-bus';
export type { KafkaEventBusLogger, KafkaLogLevel } from './kafka-log';
export { DLQ_HEADERS } from './codec';

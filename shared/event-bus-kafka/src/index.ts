export { KafkaEventBus } from './kafka-event-bus';
export type { KafkaEventBusOptions, KafkaRequestInfo, KafkaSaslOptions, KafkaTlsOptions, TopicSpec } from './kafka-options';
export type { KafkaEventBusLogger, KafkaLogLevel } from './kafka-log';
export { DLQ_HEADERS } from './codec';
export { DeadLetterAdmin, REPUBLISHED_FROM_HEADER, type DeadLetter, type DeadLetterAdminOptions } from './dead-letter-admin';

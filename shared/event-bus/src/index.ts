export {
  deadLetterTopic,
  maxBatchSizeOf,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_MAX_BATCH_SIZE,
  type BatchHandler,
  type BusMessage,
  type EventBus,
  type EventPublisher,
  type LogRange,
  type LogRead,
  type LogReadOptions,
  type MessageHandler,
  type OutgoingMessage,
  type PartitionEnd,
  type StartAt,
  type SubscribeOptions,
  type Subscription,
} from './ports';
export { MemoryEventBus, type MemoryEventBusOptions } from './memory-event-bus';
export { partitionFor } from './partitioner';
export { EVENT_TYPE_HEADER, eventTypeOf, typeOfValue } from './event-type';
export { withTopic } from './message-topic';
export type { EventJournal, JournalEntry, JournalState, JournalHistory, JournalHistoryOptions } from './journal';

import type { KafkaMessage } from 'kafkajs';
import { deadLetterTopic, type BusMessage } from '@switchyard/event-bus';
import { kafkaMetrics } from '@switchyard/metrics';
import { deadLetterHeaders, errorMessage, retryDelay } from './codec';
import type { KafkaEventBusLogger } from './kafka-log';

/** A record as it goes to `<topic>.dlq`: the original key and value bytes, unchanged. */
export interface RawRecord {
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly headers: Readonly<Record<string, string>>;
}

/** What became of a message: handled (or dead-lettered), or left uncommitted because the subscription is stopping. */
export type Outcome = 'done' | 'abandoned';

export interface FailureContext {
  readonly groupId: string;
  readonly logger: KafkaEventBusLogger;
  readonly retryDelayMs: number;
  readonly publishDeadLetter: (topic: string, record: RawRecord) => Promise<void>;
  readonly onHandlerError?: (error: unknown, message: BusMessage) => void;
}

/** Waits `ms` keeping the membership alive; false when the subscription is stopping. */
export type Pause = (ms: number) => Promise<boolean>;

/**
 * Publishes the record, unchanged, to `<topic>.dlq` with the reason in its headers. A failed publish is
 * retried (the partition waits: moving on without the dead letter would lose the message) until it
 * succeeds or the subscription stops (`pause` says so).
 */
export async function deadLetter(
  context: FailureContext,
  pause: Pause,
  topic: string,
  partition: number,
  record: KafkaMessage,
  headers: Readonly<Record<string, string>>,
  reason: unknown,
  attempts: number,
): Promise<Outcome> {
  const target = deadLetterTopic(topic);
  const info = { reason, groupId: context.groupId, topic, partition, offset: record.offset, attempts };
  const dead: RawRecord = { key: record.key, value: record.value, headers: deadLetterHeaders(headers, info) };
  for (let failures = 1; ; failures += 1) {
    try {
      await context.publishDeadLetter(target, dead);
      kafkaMetrics.consumed(topic, context.groupId, 'dead_lettered');
      context.logger.warn('event dead-lettered', { groupId: info.groupId, topic, partition, offset: info.offset, attempts, deadLetterTopic: target, reason: errorMessage(reason) });
      return 'done';
    } catch (error) {
      // The partition waits: moving on without the dead letter would lose the message.
      context.logger.error('event consumer: dead-letter publish failed; retrying', { groupId: info.groupId, topic, partition, offset: info.offset, deadLetterTopic: target, error: errorMessage(error) });
      if (!(await pause(retryDelay(failures, context.retryDelayMs * 10, 30_000)))) return 'abandoned';
    }
  }
}

/** Logs a handler failure and tells the observer (whose own failure is ignored). */
export function reportFailure(context: FailureContext, error: unknown, message: BusMessage, maxAttempts: number, transient: boolean): void {
  context.logger.warn('event handler failed', {
    groupId: context.groupId,
    topic: message.topic,
    partition: message.partition,
    offset: message.offset,
    attempt: message.attempt,
    maxAttempts,
    transient,
    error: errorMessage(error),
  });
  try {
    context.onHandlerError?.(error, message);
  } catch {
    // an observer's failure is not the handler's
  }
}

import { setTimeout as delay } from 'node:timers/promises';
import type { EachBatchPayload, KafkaMessage } from 'kafkajs';
import { DEFAULT_MAX_ATTEMPTS, type SubscribeOptions } from '@switchyard/event-bus';
import { kafkaMetrics } from '@switchyard/metrics';
import { decodeHeaders, retryDelay } from './codec';
import { deadLetter, reportFailure, type FailureContext, type Outcome } from './dead-letters';
import { recordDelivery } from './record-message';
import { processInTraceContext } from './tracing';

export interface DeliveryContext {
  readonly options: SubscribeOptions;
  readonly failures: FailureContext;
  readonly retryDelayMs: number;
  readonly maxRetryDelayMs: number;
  readonly heartbeatIntervalMs: number;
  /** A failure that spends no attempt (a dependency down for now). */
  readonly isTransientError: (error: unknown) => boolean;
}

/** What the subscription's settings give the delivery of its messages. */
export type DeliverySettings = Omit<DeliveryContext, 'options' | 'failures'> & Omit<FailureContext, 'groupId'>;

export function deliveryContext(options: SubscribeOptions, settings: DeliverySettings): DeliveryContext {
  const { logger, retryDelayMs, publishDeadLetter, onHandlerError } = settings;
  return {
    options,
    failures: { groupId: options.groupId, logger, retryDelayMs, publishDeadLetter, ...(onHandlerError ? { onHandlerError } : {}) },
    retryDelayMs,
    maxRetryDelayMs: settings.maxRetryDelayMs,
    heartbeatIntervalMs: settings.heartbeatIntervalMs,
    isTransientError: settings.isTransientError,
  };
}

/**
 * One message to the handler: retried in place (its partition waits, heartbeating) until it is handled,
 * its attempts are spent (then dead-lettered) or the subscription stops. Its value is decoded when the
 * handler first reads it (record-message.ts); a value that is not JSON is dead-lettered at once, whatever the
 * handler did with the error, and one the handler never read is handled like any other message it skipped.
 * A subscription with a batch handler decodes every record before its handler runs (its runs do anyway), so
 * there an undecodable record is dead-lettered without a handler call.
 */
export async function deliverMessage(context: DeliveryContext, payload: EachBatchPayload, record: KafkaMessage): Promise<Outcome> {
  const { options } = context;
  const { topic, partition } = payload.batch;
  const pause = (ms: number) => pauseHeartbeating(ms, payload, context.heartbeatIntervalMs);
  const key = record.key === null ? '' : record.key.toString('utf8');
  const headers = decodeHeaders(record.headers);
  const maxAttempts = Math.max(1, options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
  const attributes = {
    'messaging.kafka.consumer.group': options.groupId,
    'messaging.kafka.message.key': key,
    'messaging.kafka.offset': record.offset,
    'messaging.destination.partition.id': String(partition),
  };
  const undecodable = (reason: string) => deadLetter(context.failures, pause, topic, partition, record, headers, reason, 0);
  // Attempts spent: failures of the message itself (a transient failure, a dependency down, spends none).
  let spent = 0;
  for (let attempt = 1; ; attempt += 1) {
    // A new view per attempt: a handler that mutated the value does not see its own changes on retry.
    const delivery = recordDelivery({ topic, partition, offset: record.offset, key, headers: { ...headers }, attempt }, record.value);
    const unreadable = options.batchHandler ? delivery.decode() : undefined;
    if (unreadable !== undefined) return undecodable(unreadable);
    const { message } = delivery;
    const started = process.hrtime.bigint();
    try {
      await processInTraceContext(topic, headers, { ...attributes, 'messaging.kafka.attempt': attempt }, () => options.handler(message)).finally(delivery.release);
      kafkaMetrics.handlerSeconds(topic, options.groupId, Number(process.hrtime.bigint() - started) / 1e9);
      const reason = delivery.undecodable();
      if (reason !== undefined) return undecodable(reason);
      kafkaMetrics.consumed(topic, options.groupId, 'ok');
      return 'done';
    } catch (error) {
      kafkaMetrics.handlerSeconds(topic, options.groupId, Number(process.hrtime.bigint() - started) / 1e9);
      const reason = delivery.undecodable();
      if (reason !== undefined) return undecodable(reason);
      const transient = context.isTransientError(error);
      if (!transient) spent += 1;
      if (spent < maxAttempts) kafkaMetrics.consumed(topic, options.groupId, 'retried');
      reportFailure(context.failures, error, message, maxAttempts, transient);
      if (spent >= maxAttempts) return deadLetter(context.failures, pause, topic, partition, record, headers, error, attempt);
      if (!(await pause(retryDelay(attempt, context.retryDelayMs, context.maxRetryDelayMs)))) return 'abandoned';
    }
  }
}

/** Keeps the group membership alive while the batch's (possibly long) handlers run: one timer per batch. */
export async function withHeartbeat<T>(payload: EachBatchPayload, intervalMs: number, run: () => Promise<T>): Promise<T> {
  const timer = setInterval(() => {
    // A rebalance reported here surfaces again at the heartbeat after the message or run.
    payload.heartbeat().catch(() => undefined);
  }, intervalMs);
  try {
    return await run();
  } finally {
    clearInterval(timer);
  }
}

/** Waits `ms`, heartbeating; false when the subscription is stopping (the message stays uncommitted). */
async function pauseHeartbeating(ms: number, payload: EachBatchPayload, heartbeatIntervalMs: number): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (!payload.isRunning()) return false;
    const left = until - Date.now();
    if (left <= 0) return true;
    await delay(Math.min(left, heartbeatIntervalMs));
    if (payload.isRunning()) await payload.heartbeat();
  }
}

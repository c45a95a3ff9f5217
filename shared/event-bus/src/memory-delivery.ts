import { setTimeout as delay } from 'node:timers/promises';
import { firstDelivery, type StoredMessage } from './memory-log';
import { DEFAULT_MAX_ATTEMPTS, deadLetterTopic, type BusMessage, type OutgoingMessage, type SubscribeOptions } from './ports';

/** One stored message of a partition, with its value parsed once for every group. */
export interface QueuedMessage {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  readonly stored: StoredMessage;
  readonly value: unknown;
}

export interface RetrySettings {
  /** Delay before a failed message is handed over again: attempt × this, capped at 1 s. */
  readonly retryDelayMs?: number;
  readonly onHandlerError?: (error: unknown, message: BusMessage) => void;
}

/**
 * Hands one message to the member's handler until it succeeds or `maxAttempts` are spent; then it goes to
 * `<topic>.dlq` (the original value, the reason, group and offset in its headers) through `publish`.
 */
export async function deliverWithRetries(
  member: SubscribeOptions,
  settings: RetrySettings,
  publish: (topic: string, messages: readonly OutgoingMessage<unknown>[]) => Promise<void>,
  { topic, partition, offset, stored, value }: QueuedMessage,
): Promise<void> {
  const maxAttempts = member.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  for (let attempt = 1; ; attempt += 1) {
    const message: BusMessage = { ...firstDelivery(topic, partition, offset, stored, value), attempt };
    try {
      await member.handler(message);
      return;
    } catch (error) {
      settings.onHandlerError?.(error, message);
      if (attempt >= maxAttempts) {
        await publish(deadLetterTopic(topic), [
          {
            key: stored.key,
            value: JSON.parse(stored.json) as unknown,
            headers: {
              ...stored.headers,
              'x-dlq-reason': error instanceof Error ? error.message : String(error),
              'x-dlq-group': member.groupId,
              'x-dlq-offset': String(offset),
            },
          },
        ]);
        return;
      }
      await delay(Math.min(1000, attempt * (settings.retryDelayMs ?? 20)));
    }
  }
}

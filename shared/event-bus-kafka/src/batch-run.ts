import type { Batch } from 'kafkajs';
import type { BusMessage, SubscribeOptions } from '@switchyard/event-bus';
import { kafkaMetrics } from '@switchyard/metrics';
import type { KafkaMessage } from 'kafkajs';
import { decodeHeaders, decodeValue, errorMessage } from './codec';
import type { KafkaEventBusLogger } from './kafka-log';
import { processBatchInTraceContext } from './tracing';

/** A record of the batch decoded for the batch handler. */
export interface Decoded {
  readonly record: KafkaMessage;
  readonly message: BusMessage;
}

/** The decodable records of `batch` from `from` on (at most `max`), as first deliveries. */
export function decodedRun(batch: Batch, from: number, max: number): Decoded[] {
  const { topic, partition, messages } = batch;
  const run: Decoded[] = [];
  for (let i = from; i < messages.length && run.length < max; i += 1) {
    const record = messages[i];
    if (!record) break;
    const decoded = decodeValue(record.value);
    if (!decoded.ok) break;
    const key = record.key === null ? '' : record.key.toString('utf8');
    run.push({ record, message: { topic, partition, offset: record.offset, key, value: decoded.value, json: decoded.json, headers: decodeHeaders(record.headers), attempt: 1 } });
  }
  return run;
}

/** One call of the batch handler on `run`; false (logged) when it threw: its messages then go one at a time. */
export async function deliverRun(options: SubscribeOptions, logger: KafkaEventBusLogger, batch: Batch, run: readonly Decoded[]): Promise<boolean> {
  const { batchHandler, groupId } = options;
  if (!batchHandler) return false;
  const { topic, partition } = batch;
  const messages = run.map((d) => d.message);
  const first = messages[0]?.offset ?? '';
  const last = messages[messages.length - 1]?.offset ?? '';
  const attributes = {
    'messaging.kafka.consumer.group': groupId,
    'messaging.kafka.offset': first,
    'messaging.destination.partition.id': String(partition),
  };
  const started = process.hrtime.bigint();
  try {
    await processBatchInTraceContext(topic, messages, attributes, () => batchHandler(messages));
    kafkaMetrics.handlerSeconds(topic, groupId, Number(process.hrtime.bigint() - started) / 1e9);
    kafkaMetrics.consumed(topic, groupId, 'ok', messages.length);
    return true;
  } catch (error) {
    kafkaMetrics.handlerSeconds(topic, groupId, Number(process.hrtime.bigint() - started) / 1e9);
    kafkaMetrics.consumed(topic, groupId, 'retried', messages.length);
    logger.warn('event batch handler failed; handling its messages one at a time', {
      groupId,
      topic,
      partition,
      offsets: `${first}..${last}`,
      messages: messages.length,
      error: errorMessage(error),
    });
    return false;
  }
}

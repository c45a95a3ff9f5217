import { counter, gauge, histogram } from './registry';

const produced = () => counter('switchyard_kafka_messages_produced_total', 'Messages acknowledged by Kafka, by topic', ['topic']);
const produceErrors = () => counter('switchyard_kafka_produce_errors_total', 'Produce requests that failed, by topic (each failed message counts)', ['topic']);
const consumed = () =>
  counter('switchyard_kafka_messages_consumed_total', 'Messages handled, by topic, consumer group and outcome (ok, retried: handler failed and will run again, dead_lettered)', ['topic', 'group', 'outcome']);
const handlerSeconds = () => histogram('switchyard_kafka_handler_duration_seconds', 'Time of one handler run, by topic and consumer group', ['topic', 'group']);
const lag = () => gauge('switchyard_kafka_consumer_lag', 'Messages behind the partition end (high watermark) for the partitions this member owns', ['topic', 'partition', 'group']);

/** Lag label sets set per group, to forget them after a rebalance. */
const lagLabels = new Map<string, Map<string, { topic: string; partition: string; group: string }>>();

export const kafkaMetrics = {
  produced(topic: string, messages: number): void {
    produced().inc({ topic }, messages);
  },
  produceFailed(topic: string, messages: number): void {
    produceErrors().inc({ topic }, messages);
  },
  consumed(topic: string, group: string, outcome: 'ok' | 'retried' | 'dead_lettered', messages = 1): void {
    consumed().inc({ topic, group, outcome }, messages);
  },
  handlerSeconds(topic: string, group: string, seconds: number): void {
    handlerSeconds().observe({ topic, group }, seconds);
  },
  lag(topic: string, partition: number, group: string, messages: number): void {
    const labels = { topic, partition: String(partition), group };
    let known = lagLabels.get(group);
    if (!known) lagLabels.set(group, (known = new Map()));
    known.set(`${topic}\u0000${partition}`, labels);
    lag().set(labels, Math.max(0, messages));
  },
  /** After a rebalance or a stop: this member's partitions changed, forget its old lag figures. */
  forgetLag(group: string): void {
    for (const labels of lagLabels.get(group)?.values() ?? []) lag().remove(labels);
    lagLabels.delete(group);
  },
};

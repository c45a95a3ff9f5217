import { counter, gauge, histogram } from './registry';

const produced = () => counter('switchyard_kafka_messages_produced_total', 'Messages acknowledged by Kafka, by topic', ['topic']);
const produceErrors = () => counter('switchyard_kafka_produce_errors_total', 'Produce requests that failed, by topic (each failed message counts)', ['topic']);
const handlerSeconds = () => histogram('switchyard_kafka_handler_duration_seconds', 'Time of one handler run, by topic and consumer group', ['topic', 'group']);

/**
 * The per-message figures (messages consumed, lag) are kept in plain maps and handed to prom-client when
 * it collects (a scrape): prom-client validates and hashes the label object on every call, which cost a
 * consumer that skips most of its messages several per cent of its CPU.
 */
type Outcome = 'ok' | 'retried' | 'dead_lettered';
interface ConsumedCount {
  readonly labels: { topic: string; group: string; outcome: Outcome };
  pending: number;
}
interface LagFigure {
  readonly labels: { topic: string; partition: string; group: string };
  messages: number;
}

const consumedCounts = new Map<string, ConsumedCount>();
/** Lag per group, then per `topic\0partition`: forgotten by group after a rebalance. */
const lagFigures = new Map<string, Map<string, LagFigure>>();

const consumed = () =>
  counter(
    'switchyard_kafka_messages_consumed_total',
    'Messages handled, by topic, consumer group and outcome (ok, retried: handler failed and will run again, dead_lettered)',
    ['topic', 'group', 'outcome'],
    function collect() {
      for (const count of consumedCounts.values()) {
        if (count.pending === 0) continue;
        this.inc(count.labels, count.pending);
        count.pending = 0;
      }
    },
  );
const lag = () =>
  gauge('switchyard_kafka_consumer_lag', 'Messages behind the partition end (high watermark) for the partitions this member owns', ['topic', 'partition', 'group'], function collect() {
    for (const figures of lagFigures.values()) for (const { labels, messages } of figures.values()) this.set(labels, messages);
  });

export const kafkaMetrics = {
  produced(topic: string, messages: number): void {
    produced().inc({ topic }, messages);
  },
  produceFailed(topic: string, messages: number): void {
    produceErrors().inc({ topic }, messages);
  },
  consumed(topic: string, group: string, outcome: Outcome, messages = 1): void {
    const key = `${topic}\u0000${group}\u0000${outcome}`;
    let count = consumedCounts.get(key);
    if (!count) {
      consumed(); // registered now, so a scrape lists it
      consumedCounts.set(key, (count = { labels: { topic, group, outcome }, pending: 0 }));
    }
    count.pending += messages;
  },
  handlerSeconds(topic: string, group: string, seconds: number): void {
    handlerSeconds().observe({ topic, group }, seconds);
  },
  lag(topic: string, partition: number, group: string, messages: number): void {
    let figures = lagFigures.get(group);
    if (!figures) {
      lag(); // registered now, so a scrape lists it
      lagFigures.set(group, (figures = new Map()));
    }
    const key = `${topic}\u0000${partition}`;
    const figure = figures.get(key);
    if (figure) figure.messages = Math.max(0, messages);
    else figures.set(key, { labels: { topic, partition: String(partition), group }, messages: Math.max(0, messages) });
  },
  /** After a rebalance or a stop: this member's partitions changed, forget its old lag figures. */
  forgetLag(group: string): void {
    for (const { labels } of lagFigures.get(group)?.values() ?? []) lag().remove(labels);
    lagFigures.delete(group);
  },
};

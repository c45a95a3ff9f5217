import { describe, it } from 'node:test';
import { deadLetterTopic } from '@switchyard/event-bus';
import { eventBusContract } from '@switchyard/event-bus/contract';
import { KafkaEventBus, type KafkaEventBusLogger, type KafkaEventBusOptions } from './index';

// Real broker: KAFKA_BROKERS=127.0.0.1:9092 (deploy/local/up.sh starts one and writes it to deploy/local/.env).
const brokers = (process.env.KAFKA_BROKERS ?? '')
  .split(',')
  .map((b) => b.trim())
  .filter((b) => b.length > 0);

/** KAFKA_TEST_LOG=1 prints the adapter's and kafkajs' warnings and errors. */
const logger: KafkaEventBusLogger | undefined =
  process.env.KAFKA_TEST_LOG === '1'
    ? {
        error: (message, meta) => console.error('ERROR', message, JSON.stringify(meta)),
        warn: (message, meta) => console.error('WARN', message, JSON.stringify(meta)),
        info: (message, meta) => console.error('INFO', message, JSON.stringify(meta)),
      }
    : undefined;

if (brokers.length === 0) {
  describe('event bus contract: kafka', () => {
    it('runs against a real broker', { skip: 'KAFKA_BROKERS not set: run deploy/local/up.sh' }, () => undefined);
  });
} else {
  const options = (clientId: string): KafkaEventBusOptions => ({
    brokers,
    clientId,
    logger,
    retryDelayMs: 20,
    // Idle members poll often, so a joining or leaving member is noticed within ~1 s.
    maxWaitTimeMs: 250,
    heartbeatIntervalMs: 500,
    sessionTimeoutMs: 10_000,
    rebalanceTimeoutMs: 10_000,
  });

  eventBusContract('kafka', async () => {
    const bus = new KafkaEventBus(options('contract-a'));
    const others: KafkaEventBus[] = [];
    return {
      bus,
      // Every contract topic gets its dead-letter topic too: auto-creation is off on the broker.
      ensureTopics: async (topics, partitions) => {
        const dlqs = topics.map(deadLetterTopic).filter((t) => !topics.includes(t));
        await bus.ensureTopics([...topics.map((topic) => ({ topic, partitions })), ...dlqs.map((topic) => ({ topic, partitions: 1 }))]);
      },
      // Another process's view: its own connections, producer and group members.
      newClient: async () => {
        const other = new KafkaEventBus(options(`contract-b${others.length}`));
        others.push(other);
        return other;
      },
      cleanup: async () => {
        await Promise.all([bus.close(), ...others.map((o) => o.close())]);
      },
    };
  });
}

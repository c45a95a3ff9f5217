import type { KafkaEventBusLogger, KafkaEventBusOptions } from '../index';

/** Brokers of the real Kafka the int tests use: KAFKA_BROKERS=127.0.0.1:9092 (deploy/local/up.sh writes it to deploy/local/.env). */
export const testBrokers: readonly string[] = (process.env.KAFKA_BROKERS ?? '')
  .split(',')
  .map((b) => b.trim())
  .filter((b) => b.length > 0);

export const SKIP_WITHOUT_BROKER = 'KAFKA_BROKERS not set: run deploy/local/up.sh';

/** KAFKA_TEST_LOG=1 prints the adapter's and kafkajs' lines to stderr. */
const testLogger: KafkaEventBusLogger | undefined =
  process.env.KAFKA_TEST_LOG === '1'
    ? {
        error: (message, meta) => console.error('ERROR', message, JSON.stringify(meta)),
        warn: (message, meta) => console.error('WARN', message, JSON.stringify(meta)),
        info: (message, meta) => console.error('INFO', message, JSON.stringify(meta)),
      }
    : undefined;

/** Options tuned for tests: idle members poll every 250 ms, so joins and leaves are noticed within ~1 s. */
export function testBusOptions(clientId: string, overrides: Partial<KafkaEventBusOptions> = {}): KafkaEventBusOptions {
  return {
    brokers: testBrokers,
    clientId,
    logger: testLogger,
    retryDelayMs: 20,
    maxWaitTimeMs: 250,
    heartbeatIntervalMs: 500,
    sessionTimeoutMs: 10_000,
    rebalanceTimeoutMs: 10_000,
    ...overrides,
  };
}

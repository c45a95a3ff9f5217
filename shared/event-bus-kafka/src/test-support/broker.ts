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

/** The secured listeners deploy/local/up.sh adds to the same broker (absent when openssl was missing). */
export interface SecureTestBroker {
  readonly saslSslBrokers: readonly string[];
  readonly mtlsBrokers: readonly string[];
  readonly caFile: string;
  readonly clientCertFile: string;
  readonly clientKeyFile: string;
  readonly username: string;
  readonly password: string;
}

const list = (value: string | undefined): string[] => (value ?? '').split(',').map((b) => b.trim()).filter((b) => b !== '');

export function secureTestBroker(env: NodeJS.ProcessEnv = process.env): SecureTestBroker | undefined {
  const { KAFKA_TEST_SASL_SSL_BROKERS, KAFKA_TEST_MTLS_BROKERS, KAFKA_TEST_CA_FILE, KAFKA_TEST_CLIENT_CERT_FILE, KAFKA_TEST_CLIENT_KEY_FILE, KAFKA_TEST_SASL_USERNAME, KAFKA_TEST_SASL_PASSWORD } = env;
  if (!KAFKA_TEST_SASL_SSL_BROKERS || !KAFKA_TEST_MTLS_BROKERS || !KAFKA_TEST_CA_FILE || !KAFKA_TEST_CLIENT_CERT_FILE || !KAFKA_TEST_CLIENT_KEY_FILE || !KAFKA_TEST_SASL_USERNAME || !KAFKA_TEST_SASL_PASSWORD) return undefined;
  return {
    saslSslBrokers: list(KAFKA_TEST_SASL_SSL_BROKERS),
    mtlsBrokers: list(KAFKA_TEST_MTLS_BROKERS),
    caFile: KAFKA_TEST_CA_FILE,
    clientCertFile: KAFKA_TEST_CLIENT_CERT_FILE,
    clientKeyFile: KAFKA_TEST_CLIENT_KEY_FILE,
    username: KAFKA_TEST_SASL_USERNAME,
    password: KAFKA_TEST_SASL_PASSWORD,
  };
}

export const SKIP_WITHOUT_SECURE_BROKER = 'KAFKA_TEST_SASL_SSL_BROKERS etc. not set: run deploy/local/up.sh (with openssl on PATH)';

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadRuntimeConfig, topicsToEnsure } from './index';

const dir = mkdtempSync(join(tmpdir(), 'kafka-settings-'));
const pem = (name: string): string => {
  const path = join(dir, name);
  writeFileSync(path, `-----BEGIN CERTIFICATE-----\n${name}\n-----END CERTIFICATE-----\n`);
  return path;
};

test('when no Kafka security is configured, then the connection is plaintext with the broker defaults for replication', () => {
  const { config } = loadRuntimeConfig({ KAFKA_BROKERS: 'k:9092' }, 'svc', 0);
  assert.ok(config);
  assert.equal(config.kafka.ssl, undefined);
  assert.equal(config.kafka.sasl, undefined);
  assert.equal(config.kafka.replicationFactor, -1);
  assert.equal(config.kafka.minInsyncReplicas, undefined);
});

test('when a CA, a client certificate and SCRAM credentials are configured, then the files are read and the mechanism is normalised', () => {
  const { config, problems } = loadRuntimeConfig(
    {
      KAFKA_SSL_CA_FILE: pem('ca.pem'),
      KAFKA_SSL_CERT_FILE: pem('client.pem'),
      KAFKA_SSL_KEY_FILE: pem('client.key'),
      KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
      KAFKA_SASL_USERNAME: 'switchyard',
      KAFKA_SASL_PASSWORD: 'pw',
      KAFKA_REPLICATION_FACTOR: '3',
      KAFKA_MIN_INSYNC_REPLICAS: '2',
    },
    'svc',
    0,
  );
  assert.deepEqual(problems, []);
  assert.ok(config);
  const ssl = config.kafka.ssl;
  assert.ok(ssl && ssl !== true);
  assert.match(ssl.ca ?? '', /ca\.pem/);
  assert.match(ssl.cert ?? '', /client\.pem/);
  assert.match(ssl.key ?? '', /client\.key/);
  assert.equal(ssl.rejectUnauthorized, undefined);
  assert.deepEqual(config.kafka.sasl, { mechanism: 'scram-sha-512', username: 'switchyard', password: 'pw' });
  assert.equal(config.kafka.replicationFactor, 3);
  assert.equal(config.kafka.minInsyncReplicas, 2);
});

test('when KAFKA_SSL alone is set, then TLS uses the system CAs', () => {
  const { config } = loadRuntimeConfig({ KAFKA_SSL: 'true' }, 'svc', 0);
  assert.equal(config?.kafka.ssl, true);
});

test('when the Kafka security settings are incomplete or inconsistent, then every problem is listed', () => {
  const { config, problems } = loadRuntimeConfig(
    {
      KAFKA_SSL_CA_FILE: join(dir, 'missing.pem'),
      KAFKA_SSL_CERT_FILE: pem('only-cert.pem'),
      KAFKA_SASL_USERNAME: 'u',
      KAFKA_REPLICATION_FACTOR: '1',
      KAFKA_MIN_INSYNC_REPLICAS: '2',
    },
    'svc',
    0,
  );
  assert.equal(config, undefined);
  const text = problems.join('\n');
  for (const key of ['KAFKA_SSL_CA_FILE: cannot read', 'KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE', 'KAFKA_SASL_MECHANISM: required', 'KAFKA_MIN_INSYNC_REPLICAS']) assert.ok(text.includes(key), key);
  assert.match(loadRuntimeConfig({ KAFKA_SASL_MECHANISM: 'gssapi' }, 'svc', 0).problems.join(), /KAFKA_SASL_MECHANISM/);
});

test('when topics are ensured, then each gets its retention: per-topic setting, the dead-letter default or the default', () => {
  const { config } = loadRuntimeConfig({ KAFKA_TOPIC_RETENTION_MS: 'posts.events=3600000,users.events=-1', KAFKA_DEFAULT_RETENTION_MS: '1000' }, 'svc', 0);
  assert.ok(config);
  const byTopic = Object.fromEntries(topicsToEnsure(config).map((t) => [t.topic, t.retentionMs]));
  assert.equal(byTopic['posts.events'], 3_600_000);
  assert.equal(byTopic['users.events'], -1);
  assert.equal(byTopic['channels.events'], 1000);
  assert.equal(byTopic['posts.events.dlq'], 30 * 86_400_000);
});

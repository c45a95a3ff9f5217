import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfigResourceTypes, Kafka, logLevel } from 'kafkajs';
import { MemoryEventBus } from '@switchyard/event-bus';
import { buildInfra, loadRuntimeConfig } from './index';
import { ReadinessGraceBus } from './readiness-grace-bus';

const { KAFKA_BROKERS, MONGO_URL, REDIS_URL } = process.env;
const skip = !(KAFKA_BROKERS && MONGO_URL && REDIS_URL) && 'KAFKA_BROKERS, MONGO_URL and REDIS_URL not all set: run deploy/local/up.sh';

test('when every URL is set, then the infrastructure is Kafka, Mongo and Redis, healthy, and closes cleanly', { skip }, async () => {
  const dbName = `runtime_it_${randomBytes(6).toString('hex')}`;
  const { config, problems } = loadRuntimeConfig({ KAFKA_BROKERS, MONGO_URL, REDIS_URL, MONGO_DB: dbName, LOG_LEVEL: 'error' }, 'runtime-it', 0);
  assert.deepEqual(problems, []);
  assert.ok(config);
  const infra = await buildInfra('runtime-it', config);
  try {
    // Kafka behind the readiness grace (ADR 0025), not the in-memory bus; healthy means the brokers answered.
    assert.ok(infra.bus instanceof ReadinessGraceBus);
    assert.ok(!(infra.bus instanceof MemoryEventBus));
    assert.equal(await infra.bus.health(), true);
    assert.deepEqual(await infra.checks(), { mongo: true, redis: true });
    assert.equal(infra.mongo?.db?.databaseName, dbName);
    assert.equal(await infra.redis?.ping(), 'PONG');
    await infra.mongo?.db?.dropDatabase();
  } finally {
    await infra.close();
  }
  assert.equal(infra.redis?.status, 'end');
  assert.equal(infra.mongo?.readyState, 0);
});

const secure = {
  brokers: process.env.KAFKA_TEST_SASL_SSL_BROKERS,
  ca: process.env.KAFKA_TEST_CA_FILE,
  username: process.env.KAFKA_TEST_SASL_USERNAME,
  password: process.env.KAFKA_TEST_SASL_PASSWORD,
};
const skipSecure = !(secure.brokers && secure.ca && secure.username && secure.password) && 'KAFKA_TEST_SASL_SSL_BROKERS etc. not set: run deploy/local/up.sh (with openssl)';

test('when the env names a SASL_SSL broker, its CA file and SCRAM credentials, then the runtime connects over them and creates the topics with the configured replication, min ISR and retention', { skip: skipSecure }, async () => {
  const namespace = `rt${randomBytes(4).toString('hex')}.`;
  const { config, problems } = loadRuntimeConfig(
    {
      KAFKA_BROKERS: secure.brokers,
      KAFKA_SSL_CA_FILE: secure.ca,
      KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
      KAFKA_SASL_USERNAME: secure.username,
      KAFKA_SASL_PASSWORD: secure.password,
      KAFKA_NAMESPACE: namespace,
      KAFKA_REPLICATION_FACTOR: '1',
      KAFKA_MIN_INSYNC_REPLICAS: '1',
      KAFKA_TOPIC_RETENTION_MS: 'posts.events=3600000',
      LOG_LEVEL: 'error',
    },
    'runtime-secure-it',
    0,
  );
  assert.deepEqual(problems, []);
  assert.ok(config);
  const infra = await buildInfra('runtime-secure-it', config);
  const admin = new Kafka({
    clientId: 'runtime-secure-admin',
    brokers: [secure.brokers ?? ''],
    ssl: { ca: readFileSync(secure.ca ?? '', 'utf8') },
    sasl: { mechanism: 'scram-sha-256', username: secure.username ?? '', password: secure.password ?? '' },
    logLevel: logLevel.NOTHING,
  }).admin();
  try {
    assert.equal(await infra.bus.health(), true);
    await admin.connect();
    const names = [`${namespace}posts.events`, `${namespace}users.events`, `${namespace}posts.events.dlq`];
    const described = await admin.describeConfigs({
      includeSynonyms: false,
      resources: names.map((name) => ({ type: ConfigResourceTypes.TOPIC, name, configNames: ['retention.ms', 'min.insync.replicas'] })),
    });
    const byTopic = Object.fromEntries(described.resources.map((r) => [r.resourceName, Object.fromEntries(r.configEntries.map((e) => [e.configName, e.configValue]))]));
    assert.deepEqual(byTopic[names[0] ?? ''], { 'retention.ms': '3600000', 'min.insync.replicas': '1' });
    assert.deepEqual(byTopic[names[1] ?? ''], { 'retention.ms': String(7 * 86_400_000), 'min.insync.replicas': '1' });
    assert.deepEqual(byTopic[names[2] ?? ''], { 'retention.ms': String(30 * 86_400_000), 'min.insync.replicas': '1' });
    await admin.deleteTopics({ topics: (await admin.listTopics()).filter((t) => t.startsWith(namespace)) });
  } finally {
    await admin.disconnect();
    await infra.close();
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { KafkaEventBus } from '@switchyard/event-bus-kafka';
import { buildInfra, loadRuntimeConfig } from './index';

const { KAFKA_BROKERS, MONGO_URL, REDIS_URL } = process.env;
const skip = !(KAFKA_BROKERS && MONGO_URL && REDIS_URL) && 'KAFKA_BROKERS, MONGO_URL and REDIS_URL not all set: run deploy/local/up.sh';

test('when every URL is set, then the infrastructure is Kafka, Mongo and Redis, healthy, and closes cleanly', { skip }, async () => {
  const dbName = `runtime_it_${randomBytes(6).toString('hex')}`;
  const { config, problems } = loadRuntimeConfig({ KAFKA_BROKERS, MONGO_URL, REDIS_URL, MONGO_DB: dbName, LOG_LEVEL: 'error' }, 'runtime-it', 0);
  assert.deepEqual(problems, []);
  assert.ok(config);
  const infra = await buildInfra('runtime-it', config);
  try {
    assert.ok(infra.bus instanceof KafkaEventBus);
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

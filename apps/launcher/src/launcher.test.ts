import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processName, readEnvFile, SERVICE_TABLE, serviceUrls, withPortBase, withReplicas } from './index';

test('when an env file has comments and quotes, then only KEY=value pairs are read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'env-'));
  writeFileSync(join(dir, '.env'), '# c\nKAFKA_BROKERS=127.0.0.1:9092\n\nMONGO_URL="mongodb://127.0.0.1:27017"\nbad line\n');
  assert.deepEqual(readEnvFile(join(dir, '.env')), { KAFKA_BROKERS: '127.0.0.1:9092', MONGO_URL: 'mongodb://127.0.0.1:27017' });
  assert.deepEqual(readEnvFile(join(dir, 'missing')), {});
});

test('when service urls are built, then the gateway is not among them', () => {
  const urls = serviceUrls(SERVICE_TABLE);
  assert.match(urls, /users-bots=http:\/\/127\.0\.0\.1:8066/);
  assert.doesNotMatch(urls, /gateway/);
});

test('when a port base is given, then services move to consecutive ports and the gateway keeps its own', () => {
  const moved = withPortBase(SERVICE_TABLE, 19000);
  assert.deepEqual(
    moved.map((s) => [s.name, s.port]),
    [['users-bots', 19000], ['posts', 19001], ['incoming-hooks', 19002], ['outgoing-dispatch', 19003], ['realtime', 19004], ['gateway', 8065]],
  );
  assert.match(serviceUrls(moved), /users-bots=http:\/\/127\.0\.0\.1:19000/);
  assert.deepEqual(withPortBase(SERVICE_TABLE, undefined), [...SERVICE_TABLE]);
});

test('when realtime runs as two replicas, then both get their own port and the service urls list them as realtime=url1|url2', () => {
  const specs = withPortBase(withReplicas(SERVICE_TABLE, 'realtime', 2), 19000);
  assert.deepEqual(
    specs.map((s) => [processName(s), s.port]),
    [['users-bots', 19000], ['posts', 19001], ['incoming-hooks', 19002], ['outgoing-dispatch', 19003], ['realtime', 19004], ['realtime#2', 19005], ['gateway', 8065]],
  );
  assert.match(serviceUrls(specs), /realtime=http:\/\/127\.0\.0\.1:19004\|http:\/\/127\.0\.0\.1:19005(,|$)/);
  assert.deepEqual(withReplicas(SERVICE_TABLE, 'realtime', 1), [...SERVICE_TABLE]);
});

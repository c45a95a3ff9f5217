import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readEnvFile, SERVICE_TABLE, serviceUrls, withPortBase } from './index';

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

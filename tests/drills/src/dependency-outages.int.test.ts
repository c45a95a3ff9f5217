import { after, before, describe, it } from 'node:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './support/processes';
import { INSTALL_CACHE } from './support/own-servers';
import { OUTAGE_SERVICES, OutageDrill } from './support/outage-drill';

const skip = !process.env.KAFKA_BROKERS
  ? 'KAFKA_BROKERS not set: the drills run where deploy/local/up.sh ran (its cached installs start the drill\'s own servers)'
  : !existsSync(join(INSTALL_CACHE, 'kafka-3.9.1')) || !existsSync(join(INSTALL_CACHE, 'mongo-java-server-1.47.0'))
    ? `no cached Kafka/mongo-java-server install in ${INSTALL_CACHE} (run deploy/local/up.sh once)`
    : OUTAGE_SERVICES.find((s) => !existsSync(join(ROOT, 'services', s, 'dist', 'main.js')))
      ? 'services not built: run npx tsc -b'
      : false;

/**
 * Dependency drills (issue "[7 of 8] Production operations"): the five services of the distributed runtime on
 * the drill's OWN Kafka, MongoDB-wire (mongo-java-server) and Redis, under incoming-webhook and API-post load.
 * Kafka is stopped for 20 s and started again; Redis is stopped for 10 s and started again. Every write that
 * was acknowledged (hook `200 ok`, post `201`) must be found afterwards, and the same service processes must
 * serve again without being restarted. (MongoDB: mongo-outage.int.test.ts, on FerretDB.)
 */
describe('drills: dependency outages under load', { skip, timeout: 600_000 }, () => {
  const drill = new OutageDrill('mongo-java-server');

  before(async () => {
    if (skip === false) await drill.setUp();
  });

  after(async () => {
    if (skip === false) await drill.tearDown();
  });

  it('when Kafka is stopped for 20 s under hook and post load and started again, then no acknowledged write is lost and the services recover without a restart', async () => {
    await drill.run('kafka', 20_000);
  });

  it('when Redis is stopped for 10 s under load and started again, then requests keep being served (token cache falls back, rate limits fail open) and nothing acknowledged is lost', async () => {
    await drill.run('redis', 10_000);
  });
});

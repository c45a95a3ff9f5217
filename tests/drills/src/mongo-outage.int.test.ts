import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './support/processes';
import { ferretdbCached, INSTALL_CACHE } from './support/own-servers';
import { OUTAGE_SERVICES, OutageDrill } from './support/outage-drill';

/**
 * FerretDB is built from source (minutes on 2 loaded cores): the drill never builds it. CI builds it beside
 * `npm ci` (`MONGO_SERVER=ferretdb deploy/local/up.sh --install-only`) and sets DRILL_REQUIRE_FERRETDB=1, so
 * a missing build fails there instead of skipping.
 */
const notBuilt = `FerretDB is not built in ${INSTALL_CACHE} (mongo-java-server keeps its data in memory, so this drill needs FerretDB): MONGO_SERVER=ferretdb bash deploy/local/up.sh --install-only`;
const skip = !process.env.KAFKA_BROKERS
  ? 'KAFKA_BROKERS not set: the drills run where deploy/local/up.sh ran (its cached installs start the drill\'s own servers)'
  : !existsSync(join(INSTALL_CACHE, 'kafka-3.9.1'))
    ? `no cached Kafka install in ${INSTALL_CACHE} (run deploy/local/up.sh once)`
    : !ferretdbCached() && process.env.DRILL_REQUIRE_FERRETDB !== '1'
      ? notBuilt
      : OUTAGE_SERVICES.find((s) => !existsSync(join(ROOT, 'services', s, 'dist', 'main.js')))
        ? 'services not built: run npx tsc -b'
        : false;
if (skip !== false) console.log(`DRILL mongo: SKIPPED: ${skip}`);

/**
 * The MongoDB-wire outage drill (issue "[7 of 8] Production operations"): the five services of the distributed
 * runtime on the drill's OWN Kafka, FerretDB (persistent, SQLite) and Redis, under incoming-webhook and API-post
 * load. FerretDB is stopped for 20 s and started again on the same data. Every acknowledged write (hook `200 ok`,
 * post `201`) is found afterwards, the same processes serve again, nothing was dead-lettered, and a write refused
 * while the store was down was refused with a Mattermost-style 503 (never a 500, never a hang).
 */
describe('drills: MongoDB-wire outage under load (FerretDB)', { skip, timeout: 600_000 }, () => {
  const drill = new OutageDrill('ferretdb');

  before(async () => {
    if (skip !== false) return;
    assert.ok(ferretdbCached(), notBuilt);
    await drill.setUp();
  });

  after(async () => {
    if (skip === false) await drill.tearDown();
  });

  it('when MongoDB-wire is stopped for 20 s under hook and post load and started again, then no acknowledged write is lost, refused writes got a 503, nothing is dead-lettered and the services recover without a restart', async () => {
    const summary = await drill.run('mongo', 20_000);
    assert.ok(summary.refused_or_timed_out > 0, 'writes were refused while the store was down (the outage was real)');
    const badOutcomes = Object.keys(summary.not_acknowledged_by_outcome).filter((outcome) => !/^(hook|post) 503 /.test(outcome));
    assert.deepEqual(badOutcomes, [], 'every refused write answered 503 with a Mattermost error id: no 500, no timeout, no dropped connection');
    assert.equal(summary.dead_lettered, 0, 'an outage of the store dead-letters nothing');
  });
});

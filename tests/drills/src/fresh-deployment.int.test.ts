import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { bootstrapAdmin, call, cleanupRun, freePort, isolation, realServers, ROOT, ServiceProcess } from './support/processes';
import { consumerGroupsSettled } from './support/consumer-groups';
import { startReceiver, type Receiver } from './support/receiver';

const servers = realServers();
const missingDist = ['posts', 'outgoing-dispatch'].find((name) => !existsSync(join(ROOT, 'services', name, 'dist', 'main.js')));
const skip = servers.skip !== false ? servers.skip : missingDist ? `services/${missingDist}/dist/main.js missing: run npx tsc -b` : false;

const POSTS = 5;
const RECEIVE_TIMEOUT_MS = 60_000;

/** Committed offsets of `groupId` on `topic`, per partition (`-1`: never committed). */
async function committedOffsets(brokers: string, groupId: string, topic: string): Promise<string[]> {
  const admin = new Kafka({ clientId: 'drill-fresh-deployment', brokers: brokers.split(','), logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const [entry] = await admin.fetchOffsets({ groupId, topics: [topic] });
    return (entry?.partitions ?? []).map((p) => p.offset);
  } finally {
    await admin.disconnect();
  }
}

/**
 * Drill (issue 16, the fresh-deployment gap): outgoing-dispatch's consumer groups have never committed
 * (nothing was posted while it ran, as on a fresh deployment), it is down while users post, then it starts.
 * Its durable groups start at the earliest retained message (ADR 0002), so every post made before it
 * joined fires the hook. Starting at the end, as before, skipped them for good.
 */
describe('drill: posts made before outgoing-dispatch first joins fire the outgoing hook once it starts', { skip, timeout: 300_000 }, () => {
  const names = isolation();
  const ns = names.KAFKA_NAMESPACE ?? '';
  const processes: ServiceProcess[] = [];
  let gateway: ServiceProcess;
  let dispatcher: () => ServiceProcess;
  let receiver: Receiver;
  let brokers = '';

  before(async () => {
    if (skip !== false || servers.skip !== false) return;
    brokers = servers.env.KAFKA_BROKERS ?? '';
    const env = {
      ...servers.env,
      KAFKA_NAMESPACE: ns,
      REDIS_KEY_PREFIX: names.REDIS_KEY_PREFIX ?? '',
      KAFKA_TOPICS_FILE: join(ROOT, 'deploy/local/topics.txt'),
      INTERNAL_SECRET: randomBytes(24).toString('base64url'),
      LOG_LEVEL: 'info',
    };
    const ports = { users: await freePort(), posts: await freePort(), dispatch: await freePort(), gateway: await freePort() };
    const urls = `users-bots=http://127.0.0.1:${ports.users},posts=http://127.0.0.1:${ports.posts},outgoing-dispatch=http://127.0.0.1:${ports.dispatch}`;
    const base = { ...env, SERVICE_URLS: urls };
    const usersBots = new ServiceProcess('users-bots', ports.users, { ...base, MONGO_DB: `${names.MONGO_DB_PREFIX}users` });
    const posts = new ServiceProcess('posts', ports.posts, { ...base, MONGO_DB: `${names.MONGO_DB_PREFIX}posts` });
    gateway = new ServiceProcess('gateway', ports.gateway, { ...base, UPSTREAM_TIMEOUT_MS: '5000' });
    dispatcher = () => {
      const service = new ServiceProcess('outgoing-dispatch', ports.dispatch, { ...base, MONGO_DB: `${names.MONGO_DB_PREFIX}outgoing` });
      processes.push(service);
      return service;
    };
    processes.push(usersBots, posts, gateway);
    usersBots.start();
    posts.start();
    await usersBots.waitReady();
    await posts.waitReady();
    gateway.start();
    await gateway.waitReady();
    receiver = await startReceiver({ owners: () => new Map() });
  });

  after(async () => {
    for (const p of [...processes].reverse()) await p.stop();
    await receiver?.close();
    if (names.RUN_ID) await cleanupRun(names.RUN_ID);
  });

  it('when the dispatcher starts after the posts were made, then each of them reaches the hook', async () => {
    const base = gateway.url;
    const admin = await bootstrapAdmin(base);
    const patched = await call(base, 'PUT', '/api/v4/config/patch', { token: admin, body: { ServiceSettings: { AllowedUntrustedInternalConnections: '127.0.0.1' } } });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    // The hook lives in outgoing-dispatch: it runs to create it, before anything is posted.
    const first = dispatcher();
    first.start();
    await first.waitReady();
    await consumerGroupsSettled([first], [{ groupId: `${ns}outgoing-dispatch`, topic: `${ns}posts.events` }]);
    const suffix = randomBytes(3).toString('hex');
    const team = await call(base, 'POST', '/api/v4/teams', { token: admin, body: { name: `freshteam${suffix}`, display_name: 'Fresh', type: 'O' } });
    assert.equal(team.status, 201, JSON.stringify(team.body));
    const channel = await call(base, 'POST', '/api/v4/channels', { token: admin, body: { team_id: team.body.id, name: `fresh-${suffix}`, display_name: 'Fresh', type: 'O' } });
    assert.equal(channel.status, 201, JSON.stringify(channel.body));
    const hook = await call(base, 'POST', '/api/v4/hooks/outgoing', {
      token: admin,
      body: { team_id: team.body.id, channel_id: channel.body.id, callback_urls: [`${receiver.url}/fresh`], display_name: 'fresh deployment', content_type: 'application/json' },
    });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    assert.equal(await first.stop(), 0, 'the dispatcher stopped cleanly');
    // Arrange check: the group has joined but never committed, as on a fresh deployment.
    const offsets = await committedOffsets(brokers, `${ns}outgoing-dispatch`, `${ns}posts.events`);
    assert.ok(offsets.length > 0 && offsets.every((o) => o === '-1'), `posts.events offsets of the dispatch group: ${offsets.join(',')}`);

    const postIds: string[] = [];
    for (let i = 0; i < POSTS; i++) {
      const res = await call(base, 'POST', '/api/v4/posts', { token: admin, body: { channel_id: channel.body.id, message: `before the dispatcher ${i}` } });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      postIds.push(String(res.body.id));
    }
    const second = dispatcher();
    second.start();
    await second.waitReady();

    const received = (): Set<string> => new Set(receiver.requests.map((r) => String((JSON.parse(r.body) as { post_id?: unknown }).post_id)));
    const until = Date.now() + RECEIVE_TIMEOUT_MS;
    while (received().size < POSTS && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual([...received()].sort(), [...postIds].sort(), 'every post made while the dispatcher was down reached the hook');
    // Once: the requests are counted, not only the distinct posts, after the delivery log recorded every
    // delivery (a copy sent again would be sent before its record is marked delivered).
    type Delivery = { post_id: string; status: string; attempts: number };
    let log: Delivery[] = [];
    while (Date.now() < until) {
      log = (await call(base, 'GET', `/api/v4/hooks/outgoing/${String(hook.body.id)}/deliveries?page=0&per_page=200`, { token: admin })).body as unknown as Delivery[];
      if (log.length === POSTS && log.every((d) => d.status === 'delivered')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepEqual(log.map((d) => [d.post_id, d.status, d.attempts]).sort(), postIds.map((id) => [id, 'delivered', 1]).sort(), 'one delivery per post, delivered at the first attempt');
    assert.equal(receiver.requests.length, POSTS, `one request per post, no copies: ${receiver.requests.map((r) => r.body.slice(0, 80)).join(' | ')}`);
  });
});

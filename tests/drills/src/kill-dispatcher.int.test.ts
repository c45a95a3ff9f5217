import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { bootstrapAdmin, call, cleanupRun, freePort, isolation, realServers, ROOT, ServiceProcess } from './support/processes';
import { consumerGroupsSettled } from './support/consumer-groups';
import { startReceiver, type ReceivedRequest, type Receiver } from './support/receiver';

const servers = realServers();
const missingDist = ['posts', 'outgoing-dispatch'].find((name) => !existsSync(join(ROOT, 'services', name, 'dist', 'main.js')));
const skip = servers.skip !== false ? servers.skip : missingDist ? `services/${missingDist}/dist/main.js missing: run npx tsc -b` : false;

const POSTS = 60;
const HOOKS = 8;
/** Channels the posts go to in turn (12 over 6 partitions: both dispatchers own some whatever the ids hash to). */
const CHANNELS = 12;
const EXPECTED = POSTS * HOOKS;
const POST_GAP_MS = 60;
const RECEIVE_TIMEOUT_MS = 90_000;
const SETTLE_TIMEOUT_MS = 60_000;
const DOWN_WINDOW_MS = 2_000;
/** A delivery claim's lease: OutgoingIntegrationRequestsTimeout (set to 3 s below) + 15 s. */
const LEASE_MS = 18_000;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface Hook {
  readonly id: string;
  readonly path: string;
  readonly secret: string;
}

/** The post id a delivery body carries (JSON or form). */
function postIdOf(request: ReceivedRequest): string {
  if (String(request.headers['content-type']).startsWith('application/json')) return String((JSON.parse(request.body) as { post_id?: unknown }).post_id ?? '');
  return new URLSearchParams(request.body).get('post_id') ?? '';
}

/**
 * Why the request's Standard Webhooks signature does not verify, or undefined when it does. JSON bodies go
 * through `Webhook.verify` (which also parses the payload as JSON); form bodies are checked with the same
 * library's `sign` against the signatures in the header, with verify's 5-minute timestamp tolerance.
 */
function signatureProblem(secret: string, request: ReceivedRequest): string | undefined {
  const headers = { 'webhook-id': String(request.headers['webhook-id']), 'webhook-timestamp': String(request.headers['webhook-timestamp']), 'webhook-signature': String(request.headers['webhook-signature']) };
  const webhook = new Webhook(secret);
  try {
    if (String(request.headers['content-type']).startsWith('application/json')) {
      webhook.verify(request.body, headers);
      return undefined;
    }
    const seconds = Number(headers['webhook-timestamp']);
    if (!Number.isInteger(seconds) || Math.abs(request.at / 1000 - seconds) > 300) return `timestamp ${headers['webhook-timestamp']} outside the 5 min tolerance`;
    const expected = webhook.sign(headers['webhook-id'], new Date(seconds * 1000), request.body);
    return headers['webhook-signature'].split(' ').includes(expected) ? undefined : 'no matching v1 signature';
  } catch (error) {
    return String(error);
  }
}

/**
 * Drill (issue "[5 of 5] Outgoing webhooks … durable signed delivery"): two outgoing-dispatch processes
 * share one Mongo database and one Kafka namespace (one consumer group for posts.events; the instance that
 * handles a post attempts its deliveries, ADR 0013). Posts flow through the gateway, spread over several
 * channels (posts.events is keyed by channel, so both dispatchers get some), into hooks of the team
 * triggered by the posts' first word, whose callbacks are a receiver on 127.0.0.1; after a third of the deliveries arrived, one dispatcher is SIGKILLed while
 * posting goes on, then the receiver answers 503 for a while. Every (post, hook) pair must arrive, every
 * copy of one pair with the same webhook-id and a valid Standard Webhooks signature, and every delivery
 * must end `delivered` in the delivery log. Which process sent a request is read from the kernel (the
 * owner of the client socket), not from anything the service does for the test.
 */
describe('drill: SIGKILL one of two outgoing dispatchers while deliveries flow', { skip, timeout: 300_000 }, () => {
  const names = isolation();
  const processes: ServiceProcess[] = [];
  let gateway: ServiceProcess;
  let dispatcherA: ServiceProcess;
  let dispatcherB: ServiceProcess;
  let receiver: Receiver;
  let env: Record<string, string>;

  before(async () => {
    if (skip !== false || servers.skip !== false) return;
    env = {
      ...servers.env,
      KAFKA_NAMESPACE: names.KAFKA_NAMESPACE ?? '',
      REDIS_KEY_PREFIX: names.REDIS_KEY_PREFIX ?? '',
      KAFKA_TOPICS_FILE: join(ROOT, 'deploy/local/topics.txt'),
      INTERNAL_SECRET: randomBytes(24).toString('base64url'),
      LOG_LEVEL: 'warn',
    };
    const ports = { users: await freePort(), posts: await freePort(), a: await freePort(), b: await freePort(), gateway: await freePort() };
    const urls = (dispatcher: number): string => `users-bots=http://127.0.0.1:${ports.users},posts=http://127.0.0.1:${ports.posts},outgoing-dispatch=http://127.0.0.1:${dispatcher}`;
    const usersBots = new ServiceProcess('users-bots', ports.users, { ...env, SERVICE_URLS: urls(ports.a), MONGO_DB: `${names.MONGO_DB_PREFIX}users` });
    const posts = new ServiceProcess('posts', ports.posts, { ...env, SERVICE_URLS: urls(ports.a), MONGO_DB: `${names.MONGO_DB_PREFIX}posts` });
    const dispatcher = (port: number, instance: string): ServiceProcess =>
      new ServiceProcess('outgoing-dispatch', port, { ...env, SERVICE_URLS: urls(port), MONGO_DB: `${names.MONGO_DB_PREFIX}outgoing`, INSTANCE_ID: instance, DELIVERY_SCAN_INTERVAL_MS: '500', LOG_LEVEL: 'info' });
    dispatcherA = dispatcher(ports.a, 'dispatcher-a');
    dispatcherB = dispatcher(ports.b, 'dispatcher-b');
    // The gateway reaches outgoing-dispatch through A only (CRUD, delivery log); both dispatch.
    gateway = new ServiceProcess('gateway', ports.gateway, { ...env, SERVICE_URLS: urls(ports.a), UPSTREAM_TIMEOUT_MS: '5000' });
    processes.push(usersBots, posts, gateway, dispatcherA, dispatcherB);
    usersBots.start();
    posts.start();
    await usersBots.waitReady();
    await posts.waitReady();
    gateway.start();
    await gateway.waitReady(); // not the ping: it answers 500 while outgoing-dispatch (started later) is absent
    receiver = await startReceiver({
      owners: () => new Map([['dispatcher-a', dispatcherA.pid], ['dispatcher-b', dispatcherB.pid]]),
      // A short think time, so that the killed dispatcher has attempts in flight.
      delayMs: 25,
    });
  });

  after(async () => {
    for (const p of [...processes].reverse()) await p.stop();
    await receiver?.close();
    if (names.RUN_ID) await cleanupRun(names.RUN_ID);
  });

  it('when a dispatcher is killed mid-run and the receiver is down for a while, then every (post, hook) arrives, copies share the webhook-id, signatures verify and every delivery ends delivered', async () => {
    const base = gateway.url;
    const admin = await bootstrapAdmin(base);
    // Config before the dispatchers start, so both load it at start: loopback allowed, quick retries,
    // a short request timeout (lease = timeout + 15 s) and a breaker that closes again quickly.
    const patched = await call(base, 'PUT', '/api/v4/config/patch', {
      token: admin,
      body: {
        ServiceSettings: { AllowedUntrustedInternalConnections: '127.0.0.1', OutgoingIntegrationRequestsTimeout: 3 },
        DeliverySettings: { RetryBackoffSeconds: [1, 1, 2, 2, 3, 3], JitterPercent: 10, BreakerResetSeconds: 1 },
      },
    });
    assert.equal(patched.status, 200, `config patch: ${JSON.stringify(patched.body)}`);
    dispatcherA.start();
    dispatcherB.start();
    await dispatcherA.waitReady();
    await dispatcherB.waitReady();
    // Both members hold partitions of both groups (what they log on joining), before any post is made.
    const ns = names.KAFKA_NAMESPACE ?? '';
    await consumerGroupsSettled([dispatcherA, dispatcherB], [{ groupId: `${ns}outgoing-dispatch`, topic: `${ns}posts.events` }]);

    const suffix = randomBytes(3).toString('hex');
    const team = await call(base, 'POST', '/api/v4/teams', { token: admin, body: { name: `drillteam${suffix}`, display_name: 'Drill team', type: 'O' } });
    assert.equal(team.status, 201, JSON.stringify(team.body));
    const channels: string[] = [];
    for (let c = 0; c < CHANNELS; c++) {
      const channel = await call(base, 'POST', '/api/v4/channels', { token: admin, body: { team_id: team.body.id, name: `drill-${suffix}-${c}`, display_name: `Drill ${c}`, type: 'O' } });
      assert.equal(channel.status, 201, JSON.stringify(channel.body));
      channels.push(String(channel.body.id));
    }
    const hooks: Hook[] = [];
    for (let i = 0; i < HOOKS; i++) {
      const path = `/hook${i}`;
      const created = await call(base, 'POST', '/api/v4/hooks/outgoing', {
        token: admin,
        body: { team_id: team.body.id, trigger_words: ['drill'], callback_urls: [`${receiver.url}${path}`], display_name: `drill ${i}`, content_type: i % 2 === 0 ? 'application/json' : 'application/x-www-form-urlencoded' },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      hooks.push({ id: String(created.body.id), path, secret: String(created.body.signing_secret) });
    }
    const hookByPath = new Map(hooks.map((h) => [h.path, h]));
    const pairOf = (r: ReceivedRequest): string => `${postIdOf(r)}|${r.path}`;
    const receivedPairs = (): number => new Set(receiver.requests.filter((r) => r.status === 200).map(pairOf)).size;

    const started = Date.now();
    const postIds: string[] = [];
    let killedAt = -1;
    let killedAfterPosts = -1;
    let receivedAtKill = 0;
    let downFrom = -1;
    let armed = false;
    let refusedPosts = 0;
    const kill = async (): Promise<void> => {
      killedAt = Date.now() - started;
      killedAfterPosts = postIds.length;
      receivedAtKill = receivedPairs();
      await dispatcherB.kill();
    };
    for (let i = 0; i < POSTS; i++) {
      if (killedAt < 0 && i >= (POSTS * 2) / 3) {
        // Deliveries lag behind posting: wait (bounded) for the threshold so that posting goes on after the kill.
        const until = Date.now() + 20_000;
        while (receivedPairs() < EXPECTED / 3 && Date.now() < until) await sleep(50);
      }
      if (killedAt < 0 && receivedPairs() >= EXPECTED / 3) await kill();
      if (killedAt >= 0 && !armed && postIds.length >= killedAfterPosts + 8) {
        // The receiver goes down at the next request that reaches it (deliveries may pause after the kill
        // until the consumer group reassigns the dead member's partitions) and stays down for the window.
        armed = true;
        receiver.setAnswer(() => {
          if (downFrom < 0) downFrom = Date.now() - started;
          return Date.now() - started < downFrom + DOWN_WINDOW_MS ? 503 : 200;
        });
      }
      const res = await call(base, 'POST', '/api/v4/posts', { token: admin, body: { channel_id: channels[i % CHANNELS], message: `drill message ${i}` } }).catch(() => undefined);
      if (res?.status === 201) postIds.push(String(res.body.id));
      else refusedPosts += 1;
      await sleep(POST_GAP_MS);
    }
    const postedAt = Date.now() - started;
    assert.ok(killedAt >= 0, `the dispatcher was killed during the run (received ${receivedPairs()} of ${postIds.length * HOOKS})`);
    assert.equal(refusedPosts, 0, 'every post was accepted');
    assert.ok(postIds.length > killedAfterPosts, 'posts were made after the kill');

    const expected = postIds.length * HOOKS;
    const until = Date.now() + RECEIVE_TIMEOUT_MS;
    while (receivedPairs() < expected && Date.now() < until) await sleep(100);
    const allReceivedAt = Date.now() - started;

    // Every delivery ends `delivered` in the delivery log (records the dead process held are taken over
    // once their lease runs out), so nothing is left to be sent again.
    const settleUntil = Date.now() + SETTLE_TIMEOUT_MS;
    let statuses = new Map<string, number>();
    while (Date.now() < settleUntil) {
      statuses = new Map();
      for (const hook of hooks) {
        const log = await call(base, 'GET', `/api/v4/hooks/outgoing/${hook.id}/deliveries?page=0&per_page=200`, { token: admin });
        for (const d of log.body as unknown as { status: string }[]) statuses.set(d.status, (statuses.get(d.status) ?? 0) + 1);
      }
      if (statuses.get('delivered') === expected) break;
      await sleep(500);
    }
    const settledAt = Date.now() - started;
    // A last (duplicate) request still arriving is counted too: wait until none is half-received.
    while (receiver.inFlight() > 0 && Date.now() < settleUntil) await sleep(20);

    const requests = [...receiver.requests];
    const byPair = new Map<string, ReceivedRequest[]>();
    for (const r of requests) byPair.set(pairOf(r), [...(byPair.get(pairOf(r)) ?? []), r]);
    const delivered = new Set(requests.filter((r) => r.status === 200).map(pairOf));
    const missing: string[] = [];
    for (const postId of postIds) for (const hook of hooks) if (!delivered.has(`${postId}|${hook.path}`)) missing.push(`${postId}|${hook.path}`);

    const mixedIds: string[] = [];
    const badSignatures: string[] = [];
    const idOwners = new Map<string, string>();
    for (const [pair, copies] of byPair) {
      const ids = new Set(copies.map((c) => String(c.headers['webhook-id'])));
      if (ids.size !== 1) mixedIds.push(`${pair}: ${[...ids].join(',')}`);
      for (const id of ids) {
        const other = idOwners.get(id);
        if (other !== undefined && other !== pair) mixedIds.push(`${id} on ${pair} and ${other}`);
        idOwners.set(id, pair);
      }
      for (const copy of copies) {
        const hook = hookByPath.get(copy.path);
        const problem = hook ? signatureProblem(hook.secret, copy) : 'unknown path';
        if (problem !== undefined) badSignatures.push(`${pair}: ${problem}`);
      }
    }
    const share = (from: number, to: number): Record<string, number> => {
      const counts: Record<string, number> = { 'dispatcher-a': 0, 'dispatcher-b': 0, unknown: 0 };
      for (const r of requests) if (r.at - started >= from && r.at - started < to) counts[r.by] = (counts[r.by] ?? 0) + 1;
      return counts;
    };
    const beforeKill = share(0, killedAt);
    const afterKill = share(killedAt, Number.POSITIVE_INFINITY);
    const refused = requests.filter((r) => r.status !== 200).length;
    const duplicates = requests.filter((r) => r.status === 200).length - delivered.size;
    // Pairs the killed process sent (answered 200) whose record it could not mark delivered: the survivor sends them again.
    const takenOver = [...byPair.values()].filter((copies) => copies[0]?.by === 'dispatcher-b' && copies.some((c) => c.by === 'dispatcher-a' && c.status === 200)).length;
    // The longest pause between two requests after the kill (the dead member's partitions wait for the group's session timeout).
    const times = requests.map((r) => r.at - started).filter((t) => t >= killedAt).sort((x, y) => x - y);
    const silence = times.reduce((longest, t, i) => Math.max(longest, i === 0 ? t - killedAt : t - (times[i - 1] ?? t)), 0);
    const partitions = (p: ServiceProcess, topic: string, until: number): string => {
      const joins = p.lines.filter((l) => l.message === 'event consumer joined its group' && Date.parse(String(l.timestamp)) - started <= until);
      for (const line of joins.reverse()) {
        const assignment = (line.assignment ?? {}) as Record<string, number[]>;
        const key = Object.keys(assignment).find((k) => k.endsWith(`.${topic}`));
        if (key !== undefined) return `[${(assignment[key] ?? []).join(',')}]`;
      }
      return '[]';
    };
    const assignments = `posts.events partitions before the kill a=${partitions(dispatcherA, 'posts.events', killedAt)} b=${partitions(dispatcherB, 'posts.events', killedAt)}, after a=${partitions(dispatcherA, 'posts.events', Number.POSITIVE_INFINITY)}`;
    // Pairs whose first 2xx came after the dead process' claims ran out (lease = request timeout 3 s + 15 s).
    const firstReceived = new Map<string, number>();
    for (const r of requests) if (r.status === 200 && !firstReceived.has(pairOf(r))) firstReceived.set(pairOf(r), r.at - started);
    const afterLease = [...firstReceived.values()].filter((t) => t >= killedAt + LEASE_MS).length;
    const failureLines = (p: ServiceProcess): number => p.lines.filter((l) => l.message === 'outgoing webhook call failed').length;
    const statusText = [...statuses].map(([s, n]) => `${s}=${n}`).join(' ');

    process.stdout.write(
      `# drill: ${postIds.length} posts x ${HOOKS} hooks = ${expected} deliveries expected, ${delivered.size} received (${requests.length} requests: ${duplicates} duplicate 2xx, ${refused} answered 503 during the ${DOWN_WINDOW_MS} ms window at ${downFrom} ms), ` +
        `dispatcher-b SIGKILLed at ${killedAt} ms after ${killedAfterPosts} posts with ${receivedAtKill} delivered; requests before the kill a=${beforeKill['dispatcher-a']} b=${beforeKill['dispatcher-b']} unknown=${beforeKill.unknown}, after a=${afterKill['dispatcher-a']} b=${afterKill['dispatcher-b']} unknown=${afterKill.unknown}; ` +
        `longest silence after the kill ${silence} ms; ${assignments}; posting ended at ${postedAt} ms, all received at ${allReceivedAt} ms; delivery log ${statusText} at ${settledAt} ms; ${takenOver} pairs first sent by b then sent again by a, ${afterLease} first received after b's leases ran out; failure log lines a=${failureLines(dispatcherA)} b=${failureLines(dispatcherB)}\n`,
    );

    assert.deepEqual(missing, [], `lost: ${missing.length} of ${expected}`);
    assert.deepEqual(mixedIds, [], 'one webhook-id per (post, hook), different for different pairs');
    assert.deepEqual(badSignatures, [], 'every request carries a valid Standard Webhooks signature');
    // Duplicates are counted and bounded: a (post, hook) is answered 2xx again only when the killed dispatcher had
    // sent it without recording it (the survivor sends it once more), never a third time.
    const unexplained = [...byPair].flatMap(([pair, copies]) => {
      const ok = copies.filter((c) => c.status === 200);
      return ok.length <= 1 || (ok.length === 2 && ok[0]?.by === 'dispatcher-b' && (ok[0]?.at ?? 0) - started <= killedAt) ? [] : [`${pair}: ${ok.map((c) => `${c.by}@${c.at - started}`).join(', ')}`];
    });
    assert.deepEqual(unexplained, [], `${duplicates} duplicate 2xx; those not explained by the kill`);
    assert.ok((beforeKill['dispatcher-a'] ?? 0) > 0 && (beforeKill['dispatcher-b'] ?? 0) > 0, `both dispatchers sent deliveries before the kill: ${JSON.stringify(beforeKill)}`);
    assert.ok(refused > 0, 'the receiver refused deliveries while it was down (they were retried)');
    assert.equal(statuses.get('delivered'), expected, `every delivery ends delivered in the log: ${statusText}`);
    await dispatcherA.waitReady('/health/ready', 5_000);
  });
});

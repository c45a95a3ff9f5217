import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { bootstrapAdmin, call, cleanupRun, freePort, isolation, realServers, ROOT, ServiceProcess } from './support/processes';
import { scrape, sum, type Sample } from './support/prometheus';
import { startReceiver, type Receiver } from './support/receiver';

const servers = realServers();
const SERVICES = ['users-bots', 'posts', 'incoming-hooks', 'outgoing-dispatch', 'gateway'] as const;
type Name = (typeof SERVICES)[number];

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Every service of the distributed runtime serves Prometheus metrics on its own listener (METRICS_PORT),
 * not on its service port. A scripted workload (two accepted and two refused incoming webhooks (unknown hook, no text); a post
 * whose outgoing webhook fails three times with 500 and then succeeds) must move the counters by exactly
 * those amounts, and no label value may carry an id, a hook key, a token or a raw path.
 */
describe('metrics: each service scraped after a scripted workload', { skip: servers.skip, timeout: 180_000 }, () => {
  const names = isolation();
  const processes = new Map<Name, ServiceProcess>();
  const metricsPorts = new Map<Name, number>();
  let receiver: Receiver;
  let calls = 0;

  before(async () => {
    if (servers.skip !== false) return;
    const env = {
      ...servers.env,
      KAFKA_NAMESPACE: names.KAFKA_NAMESPACE ?? '',
      REDIS_KEY_PREFIX: names.REDIS_KEY_PREFIX ?? '',
      KAFKA_TOPICS_FILE: join(ROOT, 'deploy/local/topics.txt'),
      INTERNAL_SECRET: randomBytes(24).toString('base64url'),
      LOG_LEVEL: 'warn',
      DELIVERY_SCAN_INTERVAL_MS: '200',
    };
    const ports = new Map<Name, number>();
    for (const name of SERVICES) {
      ports.set(name, await freePort());
      metricsPorts.set(name, await freePort());
    }
    const urls = SERVICES.filter((n) => n !== 'gateway').map((n) => `${n}=http://127.0.0.1:${ports.get(n)}`).join(',');
    const db: Partial<Record<Name, string>> = { 'users-bots': 'users', posts: 'posts', 'incoming-hooks': 'incoming', 'outgoing-dispatch': 'outgoing' };
    for (const name of SERVICES) {
      const dbName = db[name];
      processes.set(name, new ServiceProcess(name, ports.get(name) ?? 0, { ...env, SERVICE_URLS: urls, METRICS_PORT: String(metricsPorts.get(name)), ...(dbName ? { MONGO_DB: `${names.MONGO_DB_PREFIX}${dbName}` } : {}) }));
    }
    for (const name of SERVICES) processes.get(name)?.start();
    for (const name of SERVICES) await processes.get(name)?.waitReady();
    // Three 500s, then 200: the outgoing webhook's first attempt and two retries fail, the third retry succeeds.
    receiver = await startReceiver({ owners: () => new Map(), answer: () => (++calls <= 3 ? 500 : 200) });
  });

  after(async () => {
    for (const p of [...processes.values()].reverse()) await p.stop();
    await receiver?.close();
    if (names.RUN_ID) await cleanupRun(names.RUN_ID);
  });

  const scrapeAll = async (): Promise<Map<Name, Sample[]>> => {
    const out = new Map<Name, Sample[]>();
    for (const name of SERVICES) out.set(name, await scrape(`http://127.0.0.1:${metricsPorts.get(name)}/metrics`));
    return out;
  };

  it('when hooks are posted and a delivery fails three times then succeeds, then the counters moved by exactly that, and no label holds an id or key', async () => {
    const gateway = processes.get('gateway');
    assert.ok(gateway);
    const base = gateway.url;
    // Metrics are not on the public port. What answers there depends on whether the web console is built
    // (its page for any unknown path, as the reference's web app; else a 404): never the Prometheus text.
    const publicMetrics = await fetch(`${base}/metrics`);
    const publicBody = await publicMetrics.text();
    assert.doesNotMatch(publicMetrics.headers.get('content-type') ?? '', /version=0\.0\.4|openmetrics/);
    assert.doesNotMatch(publicBody, /^# (HELP|TYPE) /m);
    assert.ok(!publicBody.includes('process_cpu_seconds_total'), 'no metric on the public port');
    const admin = await bootstrapAdmin(base);
    const patched = await call(base, 'PUT', '/api/v4/config/patch', {
      token: admin,
      body: {
        ServiceSettings: { AllowedUntrustedInternalConnections: '127.0.0.1' },
        DeliverySettings: { RetryBackoffSeconds: [1, 1, 1, 1, 1], JitterPercent: 0, BreakerMinRequests: 1000 },
      },
    });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    // No wait: the gateway answers a config write once the config.updated event reached it (its write
    // barrier), and every service consumes that one message; the product promises the next request meets it.
    const suffix = randomBytes(3).toString('hex');
    const team = await call(base, 'POST', '/api/v4/teams', { token: admin, body: { name: `metrics${suffix}`, display_name: 'Metrics', type: 'O' } });
    assert.equal(team.status, 201, JSON.stringify(team.body));
    const channel = await call(base, 'POST', '/api/v4/channels', { token: admin, body: { team_id: team.body.id, name: `metrics-${suffix}`, display_name: 'Metrics', type: 'O' } });
    assert.equal(channel.status, 201, JSON.stringify(channel.body));
    const incoming = await call(base, 'POST', '/api/v4/hooks/incoming', { token: admin, body: { channel_id: channel.body.id, display_name: 'metrics' } });
    assert.equal(incoming.status, 201, JSON.stringify(incoming.body));
    const outgoing = await call(base, 'POST', '/api/v4/hooks/outgoing', {
      token: admin,
      body: { team_id: team.body.id, channel_id: channel.body.id, callback_urls: [`${receiver.url}/metrics-hook`], display_name: 'metrics', content_type: 'application/json' },
    });
    assert.equal(outgoing.status, 201, JSON.stringify(outgoing.body));

    const before = await scrapeAll();
    const key = String(incoming.body.id);
    for (let i = 0; i < 2; i++) assert.equal((await call(base, 'POST', `/hooks/${key}`, { body: { text: `accepted ${i}` } })).status, 200);
    assert.equal((await call(base, 'POST', `/hooks/${'z'.repeat(26)}`, { body: { text: 'no such hook' } })).status, 400);
    assert.equal((await call(base, 'POST', `/hooks/${key}`, { body: { nothing: true } })).status, 400);
    const post = await call(base, 'POST', '/api/v4/posts', { token: admin, body: { channel_id: channel.body.id, message: 'fires the outgoing hook' } });
    assert.equal(post.status, 201, JSON.stringify(post.body));
    // Deliveries run in the background: wait (bounded) until the receiver answered its 200.
    const until = Date.now() + 60_000;
    while (receiver.requests.filter((r) => r.status === 200).length < 1 && Date.now() < until) await sleep(100);
    assert.equal(receiver.requests.length, 4, `the receiver got ${receiver.requests.length} requests`);
    // The attempt's result is counted after the receiver answered: scrape until the fourth attempt is.
    const attempts = (samples: Map<Name, Sample[]>): number => sum(samples.get('outgoing-dispatch') ?? [], 'switchyard_outgoing_delivery_attempts_total') - sum(before.get('outgoing-dispatch') ?? [], 'switchyard_outgoing_delivery_attempts_total');
    let after = await scrapeAll();
    while (attempts(after) < 4 && Date.now() < until) {
      await sleep(100);
      after = await scrapeAll();
    }
    const delta = (name: Name, metric: string, where: Record<string, string> = {}): number => sum(after.get(name) ?? [], metric, where) - sum(before.get(name) ?? [], metric, where);

    // Deliveries: 3 failed attempts (retry, 5xx) then 1 success (delivered, 2xx), 4 latencies, nothing dead.
    assert.equal(delta('outgoing-dispatch', 'switchyard_outgoing_delivery_attempts_total', { outcome: 'retry', status_class: '5xx' }), 3);
    assert.equal(delta('outgoing-dispatch', 'switchyard_outgoing_delivery_attempts_total', { outcome: 'delivered', status_class: '2xx' }), 1);
    assert.equal(delta('outgoing-dispatch', 'switchyard_outgoing_delivery_attempts_total'), 4);
    assert.equal(delta('outgoing-dispatch', 'switchyard_outgoing_delivery_duration_seconds_count'), 4);
    assert.equal(delta('outgoing-dispatch', 'switchyard_outgoing_dead_letters_total'), 0);
    assert.equal(sum(after.get('outgoing-dispatch') ?? [], 'switchyard_outgoing_deliveries_pending'), 0);
    // Intake: 2 accepted, 1 refused unknown_hook, 1 refused invalid_payload.
    assert.equal(delta('incoming-hooks', 'switchyard_incoming_webhooks_total', { result: 'accepted' }), 2);
    assert.equal(delta('incoming-hooks', 'switchyard_incoming_webhooks_total', { result: 'refused', reason: 'unknown_hook' }), 1);
    assert.equal(delta('incoming-hooks', 'switchyard_incoming_webhooks_total', { result: 'refused', reason: 'invalid_payload' }), 1);
    // HTTP by route template: the gateway answered the four hook requests and the post.
    assert.equal(delta('incoming-hooks', 'switchyard_http_request_duration_seconds_count', { route: '/hooks/:key', method: 'POST' }), 4);
    assert.ok(delta('gateway', 'switchyard_http_request_duration_seconds_count', { method: 'POST' }) >= 5);
    // Kafka: posts published the post's event; the dispatcher consumed it.
    assert.ok(delta('posts', 'switchyard_kafka_messages_produced_total') >= 1);
    assert.ok(delta('outgoing-dispatch', 'switchyard_kafka_messages_consumed_total', { outcome: 'ok' }) >= 1);
    assert.ok(delta('outgoing-dispatch', 'switchyard_kafka_handler_duration_seconds_count') >= 1);
    // Store latency: every service with a database.
    for (const name of ['users-bots', 'posts', 'incoming-hooks', 'outgoing-dispatch'] as const) assert.ok(delta(name, 'switchyard_store_operation_duration_seconds_count', { store: 'mongo' }) > 0, name);

    // Every service: process and event-loop metrics; no label value that is an id, a key, a token or a path.
    const secrets = [admin, key, String(team.body.id), String(channel.body.id), String(outgoing.body.id), String(post.body.id), String(outgoing.body.token)];
    for (const name of SERVICES) {
      const samples = after.get(name) ?? [];
      assert.ok(sum(samples, 'process_cpu_user_seconds_total') > 0, `${name}: process metrics`);
      assert.ok(samples.some((s) => s.name === 'nodejs_eventloop_lag_p99_seconds'), `${name}: event loop metrics`);
      for (const s of samples) {
        for (const [label, value] of Object.entries(s.labels)) {
          assert.ok(!secrets.some((x) => value.includes(x)), `${name}: ${s.name}{${label}="${value}"} holds an id or key`);
          assert.ok(!/(^|[^a-z0-9])[a-z0-9]{26}([^a-z0-9]|$)/.test(value), `${name}: ${s.name}{${label}="${value}"} looks like an id`);
          if (label === 'route') assert.ok(value === 'unmatched' || !/\/[a-z0-9]{20,}/.test(value), `${name}: route ${value} is a raw path`);
        }
      }
    }
  });
});

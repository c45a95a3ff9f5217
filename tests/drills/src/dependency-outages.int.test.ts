import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { bootstrapAdmin, call, freePort, ROOT, ServiceProcess } from './support/processes';
import { OwnServers, type ServerName } from './support/own-servers';

const SERVICES = ['users-bots', 'posts', 'incoming-hooks', 'outgoing-dispatch', 'gateway'] as const;
const cacheDir = process.env.DEPLOY_LOCAL_CACHE ?? join(ROOT, 'deploy/local/.cache');
const skip = !process.env.KAFKA_BROKERS
  ? 'KAFKA_BROKERS not set: the drills run where deploy/local/up.sh ran (its cached installs start the drill\'s own servers)'
  : !existsSync(join(cacheDir, 'kafka-3.9.1')) || !existsSync(join(cacheDir, 'mongo-java-server-1.47.0'))
    ? `no cached Kafka/mongo-java-server install in ${cacheDir} (run deploy/local/up.sh once)`
    : SERVICES.find((s) => !existsSync(join(ROOT, 'services', s, 'dist', 'main.js')))
      ? 'services not built: run npx tsc -b'
      : false;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface Write {
  readonly text: string;
  readonly via: 'hook' | 'post';
  acknowledged: boolean;
}

/**
 * Dependency drills (issue "[7 of 8] Production operations"): the five services of the distributed runtime on
 * the drill's OWN Kafka, MongoDB-wire and Redis (never the shared ones), under incoming-webhook and API-post
 * load. Kafka is stopped for 20 s and started again; Redis is stopped for 10 s and started again. Every write
 * that was acknowledged (hook `200 ok`, post `201`) must be found afterwards, and the same service processes
 * must serve again without being restarted.
 */
describe('drills: dependency outages under load', { skip, timeout: 600_000 }, () => {
  const servers = new OwnServers();
  const processes = new Map<string, ServiceProcess>();
  let base = '';
  let admin = '';
  let channelId = '';
  let hookKey = '';

  before(async () => {
    if (skip !== false) return;
    await servers.start();
    const env = {
      KAFKA_BROKERS: servers.env.KAFKA_BROKERS ?? '',
      MONGO_URL: servers.env.MONGO_URL ?? '',
      REDIS_URL: servers.env.REDIS_URL ?? '',
      KAFKA_TOPICS_FILE: join(ROOT, 'deploy/local/topics.txt'),
      INTERNAL_SECRET: randomBytes(24).toString('base64url'),
      LOG_LEVEL: 'warn',
      UPSTREAM_TIMEOUT_MS: '15000',
    };
    const ports = new Map<string, number>();
    for (const name of SERVICES) ports.set(name, await freePort());
    const urls = SERVICES.filter((n) => n !== 'gateway').map((n) => `${n}=http://127.0.0.1:${ports.get(n)}`).join(',');
    for (const name of SERVICES) processes.set(name, new ServiceProcess(name, ports.get(name) ?? 0, { ...env, SERVICE_URLS: urls, METRICS_PORT: '0' }));
    for (const name of SERVICES) processes.get(name)?.start();
    for (const name of SERVICES) await processes.get(name)?.waitReady();
    base = processes.get('gateway')?.url ?? '';
    admin = await bootstrapAdmin(base);
    const suffix = randomBytes(3).toString('hex');
    const team = await call(base, 'POST', '/api/v4/teams', { token: admin, body: { name: `outage${suffix}`, display_name: 'Outage', type: 'O' } });
    assert.equal(team.status, 201, JSON.stringify(team.body));
    const channel = await call(base, 'POST', '/api/v4/channels', { token: admin, body: { team_id: team.body.id, name: `outage-${suffix}`, display_name: 'Outage', type: 'O' } });
    assert.equal(channel.status, 201, JSON.stringify(channel.body));
    channelId = String(channel.body.id);
    const hook = await call(base, 'POST', '/api/v4/hooks/incoming', { token: admin, body: { channel_id: channelId, display_name: 'outage' } });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    hookKey = String(hook.body.id);
  });

  after(async () => {
    for (const p of [...processes.values()].reverse()) await p.stop();
    if (skip === false) servers.stopAll();
  });

  /** Every message of the channel (all pages). */
  const channelMessages = async (): Promise<Set<string>> => {
    const found = new Set<string>();
    for (let page = 0; page < 100; page++) {
      const res = await call(base, 'GET', `/api/v4/channels/${channelId}/posts?page=${page}&per_page=200`, { token: admin });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const posts = Object.values((res.body.posts ?? {}) as Record<string, { message: string }>);
      for (const p of posts) found.add(p.message);
      if (posts.length < 200) break;
    }
    return found;
  };

  /** Hook and post writers until `stop()`; each write remembers whether it was acknowledged. */
  const load = (label: string): { writes: Write[]; stop: () => Promise<void> } => {
    const writes: Write[] = [];
    let running = true;
    const writer = async (via: 'hook' | 'post'): Promise<void> => {
      for (let i = 0; running; i++) {
        const write: Write = { text: `${label} ${via} ${i} ${randomBytes(4).toString('hex')}`, via, acknowledged: false };
        writes.push(write);
        try {
          const res = await fetch(via === 'hook' ? `${base}/hooks/${hookKey}` : `${base}/api/v4/posts`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...(via === 'post' ? { authorization: `Bearer ${admin}` } : {}) },
            body: JSON.stringify(via === 'hook' ? { text: write.text } : { channel_id: channelId, message: write.text }),
            signal: AbortSignal.timeout(20_000),
          });
          write.acknowledged = via === 'hook' ? res.status === 200 && (await res.text()) === 'ok' : res.status === 201;
          if (!write.acknowledged) await res.body?.cancel();
        } catch {
          // refused or timed out: not acknowledged
        }
        await sleep(write.acknowledged ? 50 : 250);
      }
    };
    const done = Promise.all([writer('hook'), writer('post')]);
    return {
      writes,
      stop: async () => {
        running = false;
        await done;
      },
    };
  };

  /** Until `count()` reaches `atLeast` (bounded). */
  const untilAcknowledged = async (count: () => number, atLeast: number, timeoutMs: number): Promise<void> => {
    const until = Date.now() + timeoutMs;
    while (count() < atLeast) {
      if (Date.now() > until) throw new Error(`only ${count()} of ${atLeast} writes acknowledged within ${timeoutMs} ms`);
      await sleep(100);
    }
  };

  /** Until a hook and a post both succeed again (bounded): the processes recovered on their own. */
  const waitRecovered = async (timeoutMs: number): Promise<number> => {
    const started = Date.now();
    while (Date.now() - started < timeoutMs) {
      const hook = await call(base, 'POST', `/hooks/${hookKey}`, { body: { text: `recovery probe ${Date.now()}` } }).catch(() => undefined);
      const post = await call(base, 'POST', '/api/v4/posts', { token: admin, body: { channel_id: channelId, message: `recovery probe ${Date.now()}` } }).catch(() => undefined);
      if (hook?.status === 200 && post?.status === 201) return Date.now() - started;
      await sleep(500);
    }
    throw new Error(`not recovered after ${timeoutMs} ms`);
  };

  const drill = async (server: ServerName, downMs: number): Promise<void> => {
    const pids = new Map([...processes].map(([n, p]) => [n, p.pid]));
    const crashesBefore = [...processes.values()].flatMap((p) => p.lines).filter((l) => l.message === 'event consumer crashed; rejoining').length;
    const run = load(`${server}-outage`);
    // Load is flowing (writes acknowledged) before the outage, and again after the recovery: counted, not timed.
    const acknowledgedCount = (): number => run.writes.filter((w) => w.acknowledged).length;
    await untilAcknowledged(acknowledgedCount, 20, 60_000);
    const stoppedAt = Date.now();
    await servers.stop(server);
    // The outage itself: the server stays down this long (the scenario, not a synchronisation).
    await sleep(Math.max(0, downMs - (Date.now() - stoppedAt)));
    await servers.restart(server);
    const restartedAt = Date.now();
    await waitRecovered(120_000);
    const recoveredAfterMs = Date.now() - restartedAt;
    await untilAcknowledged(acknowledgedCount, acknowledgedCount() + 20, 60_000);
    await run.stop();
    // Acknowledged writes become readable (stored mode answers after the post exists; queued ones land shortly).
    const acknowledged = run.writes.filter((w) => w.acknowledged);
    let found = await channelMessages();
    const until = Date.now() + 60_000;
    while (acknowledged.some((w) => !found.has(w.text)) && Date.now() < until) {
      await sleep(1_000);
      found = await channelMessages();
    }
    const lost = acknowledged.filter((w) => !found.has(w.text));
    const summary = {
      server,
      down_ms: restartedAt - stoppedAt,
      attempted: run.writes.length,
      acknowledged: acknowledged.length,
      acknowledged_hooks: acknowledged.filter((w) => w.via === 'hook').length,
      acknowledged_posts: acknowledged.filter((w) => w.via === 'post').length,
      found: acknowledged.length - lost.length,
      lost: lost.length,
      refused_or_timed_out: run.writes.length - acknowledged.length,
      recovered_ms_after_restart: recoveredAfterMs,
      consumer_crashes_rejoined: [...processes.values()].flatMap((p) => p.lines).filter((l) => l.message === 'event consumer crashed; rejoining').length - crashesBefore,
    };
    console.log(`DRILL ${server}: ${JSON.stringify(summary)}`);
    assert.deepEqual(lost.map((w) => w.text), [], 'no acknowledged write is lost');
    assert.ok(acknowledged.length > 0);
    for (const [name, pid] of pids) assert.equal(processes.get(name)?.pid, pid, `${name} was not restarted`);
    for (const [name, p] of processes) {
      const live = await fetch(`${p.url}/health/live`);
      assert.equal(live.status, 200, `${name} live: ${await live.text()} ${JSON.stringify(p.lines.filter((l) => l.level === 'error').slice(-5))}`);
    }
  };

  it('when Kafka is stopped for 20 s under hook and post load and started again, then no acknowledged write is lost and the services recover without a restart', async () => {
    await drill('kafka', 20_000);
  });

  it('when Redis is stopped for 10 s under load and started again, then requests keep being served (token cache falls back, rate limits fail open) and nothing acknowledged is lost', async () => {
    await drill('redis', 10_000);
  });
});

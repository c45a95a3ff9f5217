import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { parse } from 'yaml';
import { bootstrapAdmin, call, cleanupRun, freePort, isolation, realServers, ROOT, ServiceProcess } from './support/processes';

/**
 * Compose smoke test where no container engine exists (issue 31): docker-compose.yml is read as Compose
 * reads it (anchors, merge keys, `${VAR:-default}`, `${VAR:?error}`, `$$`), its topology is checked, and
 * the Switchyard services are started as real processes with compose's environment and the image's
 * command (`node --require services/$SERVICE/dist/instrumentation.js services/$SERVICE/dist/main.js`),
 * on the local servers instead of compose's containers: compose's host names (kafka, mongo, redis, the
 * services) are mapped to them and to free loopback ports, and nothing else of the environment changes.
 * kafka-init's TOPICS are created as kafka-init would. The run's prefixes (topics and groups, databases,
 * Redis keys) keep it apart from everything else on the shared servers. Each service counts as up when
 * compose's own healthcheck command passes; the gateway starts after the others, as depends_on says.
 */
const servers = realServers();
const secret = randomBytes(32).toString('base64');
const COMPOSE_ENV: Record<string, string> = { INTERNAL_SECRET: secret };

interface ComposeService {
  readonly image?: string;
  readonly build?: { readonly args?: Record<string, string> };
  readonly environment?: Record<string, string | number | null>;
  readonly depends_on?: Record<string, { condition: string }>;
  readonly healthcheck?: { readonly test: string[] };
  readonly ports?: string[];
  readonly command?: string[];
  readonly stop_grace_period?: string;
  readonly volumes?: string[];
}

/** Compose's variable interpolation: ${VAR}, ${VAR:-default}, ${VAR:?error}; `$$` is a literal `$`. */
function interpolate(text: string, env: Record<string, string>): string {
  return text.replace(/\$\$|\$\{([A-Z0-9_]+)(?:(:-|:\?)([^}]*))?\}/g, (whole, name: string | undefined, op: string | undefined, arg: string | undefined) => {
    if (whole === '$$') return '$';
    const value = env[name ?? ''];
    if (value !== undefined && value !== '') return value;
    if (op === ':?') throw new Error(`compose: ${name}: ${arg}`);
    return op === ':-' ? (arg ?? '') : '';
  });
}

function loadCompose(env: Record<string, string>): Record<string, ComposeService> {
  const text = interpolate(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), env);
  return (parse(text, { merge: true }) as { services: Record<string, ComposeService> }).services;
}

const envOf = (svc: ComposeService): Record<string, string> =>
  Object.fromEntries(Object.entries(svc.environment ?? {}).filter(([, v]) => v !== null).map(([k, v]) => [k, String(v)]));

/** host:port pairs named by a service's env (brokers, URLs). */
function endpoints(env: Record<string, string>): { key: string; host: string; port: number }[] {
  const out: { key: string; host: string; port: number }[] = [];
  for (const broker of (env.KAFKA_BROKERS ?? '').split(',').filter(Boolean)) {
    const [host, port] = broker.split(':');
    out.push({ key: 'KAFKA_BROKERS', host: host ?? '', port: Number(port) });
  }
  for (const key of ['REDIS_URL', 'MONGO_URL', 'USERS_BOTS_URL']) {
    if (env[key]) {
      const url = new URL(env[key]);
      out.push({ key, host: url.hostname, port: Number(url.port) });
    }
  }
  for (const entry of (env.SERVICE_URLS ?? '').split(',').filter(Boolean)) {
    const url = new URL(entry.slice(entry.indexOf('=') + 1));
    out.push({ key: `SERVICE_URLS ${entry.slice(0, entry.indexOf('='))}`, host: url.hostname, port: Number(url.port) });
  }
  return out;
}

const compose = loadCompose(COMPOSE_ENV);
const switchyard = Object.entries(compose).filter(([, s]) => s.build?.args?.SERVICE !== undefined).map(([name]) => name);
const missingDist = switchyard.find((name) => !existsSync(join(ROOT, 'services', name, 'dist', 'main.js')));

describe('docker-compose.yml: rendered topology', () => {
  it('when INTERNAL_SECRET is missing, then compose refuses to start (no default secret)', () => {
    assert.throws(() => loadCompose({}), /INTERNAL_SECRET/);
  });

  it('when rendered, then every name a service points at is a compose service listening on that port', () => {
    const portOf = (name: string): number | undefined => {
      const svc = compose[name];
      const port = svc && envOf(svc).PORT;
      return port ? Number(port) : { kafka: 9092, redis: 6379, mongo: 27017 }[name];
    };
    for (const name of switchyard) {
      for (const e of endpoints(envOf(compose[name] as ComposeService))) {
        assert.ok(compose[e.host], `${name} ${e.key}: host ${e.host} is no compose service`);
        assert.equal(e.port, portOf(e.host), `${name} ${e.key}: ${e.host}:${e.port}, but ${e.host} listens on ${portOf(e.host)}`);
      }
    }
  });

  it('when rendered, then each service waits for what it uses, the graph has no cycle and only the gateway publishes a port', () => {
    const visiting = new Set<string>();
    const done = new Set<string>();
    const visit = (name: string, path: string[]): void => {
      assert.ok(!visiting.has(name), `depends_on cycle: ${[...path, name].join(' -> ')}`);
      if (done.has(name)) return;
      visiting.add(name);
      for (const dep of Object.keys(compose[name]?.depends_on ?? {})) visit(dep, [...path, name]);
      visiting.delete(name);
      done.add(name);
    };
    for (const name of Object.keys(compose)) visit(name, []);
    for (const name of switchyard) {
      const svc = compose[name] as ComposeService;
      const env = envOf(svc);
      // The infrastructure must be up first; services call each other at request time (with retries), so
      // SERVICE_URLS and USERS_BOTS_URL need no start order (and would make cycles).
      // Directly or through a service it waits for (the gateway waits for users-bots, which waits for kafka).
      const waitsFor = new Set<string>();
      const walk = (n: string): void => {
        for (const [dep, cfg] of Object.entries(compose[n]?.depends_on ?? {})) {
          if ((cfg.condition === 'service_healthy' || cfg.condition === 'service_completed_successfully') && !waitsFor.has(dep)) {
            waitsFor.add(dep);
            walk(dep);
          }
        }
      };
      walk(name);
      for (const e of endpoints(env).filter((x) => ['KAFKA_BROKERS', 'REDIS_URL', 'MONGO_URL'].includes(x.key))) {
        assert.ok(waitsFor.has(e.host), `${name} uses ${e.host} (${e.key}) without waiting for it to be healthy`);
      }
      if (env.KAFKA_BROKERS && env.KAFKA_ENSURE_TOPICS === 'false') assert.ok(waitsFor.has('kafka-init'), `${name} needs kafka-init's topics (it creates none)`);
      assert.ok(svc.healthcheck?.test.join(' ').includes(`127.0.0.1:${env.PORT}/health/ready`), `${name}'s healthcheck probes its own PORT ${env.PORT}`);
      if (name !== 'gateway') assert.equal(svc.ports, undefined, `${name} publishes a port`);
    }
  });
});

describe('docker-compose.yml: the services as real processes with compose\'s environment', { skip: servers.skip !== false ? servers.skip : missingDist ? `services/${missingDist}/dist missing: npx tsc -b` : false, timeout: 300_000 }, () => {
  const run = isolation();
  const processes = new Map<string, ServiceProcess>();
  const ports = new Map<string, number>();
  /** Compose's named volumes are directories of this run (a volume's mount path in the env points there). */
  const volumes = mkdtempSync(join(tmpdir(), 'compose-smoke-volumes-'));

  /** Compose's env of `name`, its host names mapped to the local servers and the processes' ports. */
  function localEnv(name: string): Record<string, string> {
    const env0 = servers.skip === false ? servers.env : {};
    const real = { KAFKA_BROKERS: env0.KAFKA_BROKERS ?? '', MONGO_URL: env0.MONGO_URL ?? '', REDIS_URL: env0.REDIS_URL ?? '' };
    const env = envOf(compose[name] as ComposeService);
    const mapped: Record<string, string> = {};
    for (const [key, value] of Object.entries(env)) {
      let v = value.replace(/\bkafka:9092\b/g, real.KAFKA_BROKERS).replace(/redis:\/\/redis:6379/g, real.REDIS_URL);
      v = v.replace(/mongodb:\/\/mongo:27017(\/[A-Za-z0-9_]*)?/g, real.MONGO_URL);
      for (const [svc, port] of ports) v = v.replace(new RegExp(`http://${svc}:\\d+`, 'g'), `http://127.0.0.1:${port}`);
      for (const volume of compose[name]?.volumes ?? []) {
        const [source, target] = volume.split(':');
        if (source && target && v === target) v = join(volumes, source);
      }
      mapped[key] = v;
    }
    // The run's prefixes keep its topics, databases and keys apart (nothing else of compose's env changes).
    const isolated = { KAFKA_NAMESPACE: run.KAFKA_NAMESPACE ?? '', REDIS_KEY_PREFIX: run.REDIS_KEY_PREFIX ?? '', PORT: String(ports.get(name)) };
    return { ...mapped, ...isolated, ...(mapped.MONGO_DB ? { MONGO_DB: `${run.MONGO_DB_PREFIX ?? ''}${mapped.MONGO_DB}` } : {}) };
  }

  /** Compose's healthcheck command of `name`, run as compose would (its port mapped). */
  function healthy(name: string): boolean {
    const test = (compose[name] as ComposeService).healthcheck?.test ?? [];
    assert.equal(test[0], 'CMD');
    const port = envOf(compose[name] as ComposeService).PORT ?? '';
    const args = test.slice(2).map((a) => a.replace(`127.0.0.1:${port}`, `127.0.0.1:${ports.get(name)}`));
    return spawnSync(process.execPath, args, { timeout: 5_000 }).status === 0;
  }

  async function waitHealthy(name: string, timeoutMs = 120_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (!healthy(name)) {
      assert.ok(Date.now() < until, `${name} not healthy after ${timeoutMs} ms: ${processes.get(name)?.stderr.join('').slice(-1500)}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  before(async () => {
    for (const name of switchyard) ports.set(name, await freePort());
    // kafka-init: TOPICS, each with a one-partition .dlq (under the run's prefix).
    const admin = new Kafka({ clientId: 'compose-smoke', brokers: ((servers.skip === false ? servers.env.KAFKA_BROKERS : undefined) ?? '').split(','), logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    const specs = (envOf(compose['kafka-init'] as ComposeService).TOPICS ?? '').split(/\s+/).filter(Boolean);
    await admin.createTopics({
      waitForLeaders: true,
      topics: specs.flatMap((s) => {
        const [topic, partitions] = s.split(':');
        return [
          { topic: `${run.KAFKA_NAMESPACE}${topic}`, numPartitions: Number(partitions), replicationFactor: 1 },
          { topic: `${run.KAFKA_NAMESPACE}${topic}.dlq`, numPartitions: 1, replicationFactor: 1 },
        ];
      }),
    });
    await admin.disconnect();
  });

  after(async () => {
    await Promise.all([...processes.values()].map((p) => p.stop()));
    await cleanupRun(run.RUN_ID ?? '');
    rmSync(volumes, { recursive: true, force: true });
  });

  it('when started in depends_on order with compose\'s env, then every healthcheck passes and the gateway serves', async () => {
    const backends = switchyard.filter((n) => n !== 'gateway');
    for (const name of backends) processes.set(name, new ServiceProcess(name, ports.get(name) ?? 0, localEnv(name)));
    for (const name of backends) processes.get(name)?.start();
    for (const name of backends) await waitHealthy(name);
    // The gateway waits for every backend to be healthy (depends_on), then starts.
    assert.deepEqual(Object.keys(compose.gateway?.depends_on ?? {}).filter((d) => switchyard.includes(d)).sort(), [...backends].sort());
    const gateway = new ServiceProcess('gateway', ports.get('gateway') ?? 0, localEnv('gateway'));
    processes.set('gateway', gateway);
    gateway.start();
    await waitHealthy('gateway');
    const base = gateway.url;
    const ping = await call(base, 'GET', '/api/v4/system/ping?get_server_status=true');
    assert.equal(ping.status, 200, JSON.stringify(ping.body));
    // A request through every hop: the gateway, users-bots (first admin), posts (a team's channel).
    const token = await bootstrapAdmin(base);
    const team = await call(base, 'POST', '/api/v4/teams', { token, body: { name: `smoke${randomBytes(3).toString('hex')}`, display_name: 'Smoke', type: 'O' } });
    assert.equal(team.status, 201, JSON.stringify(team.body));
    // A file through compose's FileSettings (local driver in volume posts-files): uploaded, read back equal.
    const channel = await call(base, 'POST', '/api/v4/channels', { token, body: { team_id: team.body.id, name: 'smoke-files', display_name: 'Smoke files', type: 'O' } });
    assert.equal(channel.status, 201, JSON.stringify(channel.body));
    const bytes = randomBytes(4096);
    const upload = await fetch(`${base}/api/v4/files?channel_id=${String(channel.body.id)}&filename=smoke.bin`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' }, body: bytes });
    const uploaded = (await upload.json()) as { file_infos?: { id: string }[] };
    assert.equal(upload.status, 201, JSON.stringify(uploaded));
    const fileId = uploaded.file_infos?.[0]?.id ?? '';
    const download = await fetch(`${base}/api/v4/files/${fileId}`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(download.status, 200);
    assert.ok(Buffer.from(await download.arrayBuffer()).equals(bytes), 'the downloaded bytes equal the uploaded ones');
    for (const [name, p] of processes) assert.equal(p.lines.filter((l) => l.level === 'error').length, 0, `${name} logged errors: ${JSON.stringify(p.lines.filter((l) => l.level === 'error').slice(0, 3))}`);
    console.log(`compose-smoke: ${processes.size} services healthy by compose's healthchecks; ping ${ping.status}; team ${team.status}; file ${upload.status}/${download.status} (${localEnv('posts').MM_FILESETTINGS_DRIVERNAME}); NODE_ENV=${localEnv('gateway').NODE_ENV}`);
  });
});

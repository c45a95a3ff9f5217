/**
 * A distributed Switchyard of real processes on the real local Kafka, MongoDB-wire and Redis, for the
 * scale-out bench: users-bots, posts and the gateway once, and any number of outgoing-dispatch processes
 * started and stopped between rounds. Everything lives under one run id (topics, groups, databases, Redis
 * keys), removed at the end; services listen on 127.0.0.1 only.
 */
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { readEnvFile } from '../../apps/launcher/src/env-file';
import { bootstrapAdmin, call, cleanupRun, freePort, isolation, ROOT, ServiceProcess } from '../../tests/drills/src/support/processes';

/** The durable consumer group of outgoing-dispatch (services/outgoing-dispatch/src/entry-points/kafka): the instance that handles a post attempts its deliveries. */
const DISPATCH_GROUPS = ['outgoing-dispatch'];

export interface DispatchStack {
  readonly gatewayUrl: string;
  readonly token: string;
  /** Starts `count` dispatchers (with extra env and node options) and waits until each answers ready. */
  startDispatchers(count: number, options?: { readonly env?: Record<string, string>; readonly nodeArgs?: readonly string[] }): Promise<ServiceProcess[]>;
  /** Resolves (with Date.now()) once the dispatch consumer group is stable with `count` members, each assigned partitions. */
  groupsStable(count: number): Promise<number>;
  stopDispatchers(): Promise<void>;
  stop(): Promise<void>;
}

/** KAFKA_BROKERS, MONGO_URL and REDIS_URL from the environment or deploy/local/.env; undefined if missing. */
export function localServers(): Record<string, string> | undefined {
  const file = readEnvFile(join(ROOT, 'deploy/local/.env'));
  const pick = (key: string): string | undefined => process.env[key] ?? file[key];
  const [kafka, mongo, redis] = [pick('KAFKA_BROKERS'), pick('MONGO_URL'), pick('REDIS_URL')];
  return kafka && mongo && redis ? { KAFKA_BROKERS: kafka, MONGO_URL: mongo, REDIS_URL: redis } : undefined;
}

function buildDist(): void {
  const build = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b'], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`tsc -b failed:\n${(build.stdout + build.stderr).slice(0, 2000)}`);
}

async function waitStableGroups(brokers: string, namespace: string, members: number, timeoutMs = 60_000): Promise<number> {
  const admin = new Kafka({ clientId: 'bench-scale-out', brokers: brokers.split(','), logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const { groups } = await admin.describeGroups(DISPATCH_GROUPS.map((g) => namespace + g));
      const assigned = groups.every((g) => g.state === 'Stable' && g.members.length === members && g.members.every((m) => m.memberAssignment.length > 0));
      if (assigned) return Date.now();
      if (Date.now() > until) throw new Error(`dispatch groups not stable with ${members} members: ${groups.map((g) => `${g.groupId} ${g.state} ${g.members.length}`).join('; ')}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    await admin.disconnect();
  }
}

export async function startDispatchStack(servers: Record<string, string>): Promise<DispatchStack> {
  buildDist();
  const names = isolation();
  const namespace = names.KAFKA_NAMESPACE ?? '';
  const env: Record<string, string> = {
    ...servers,
    KAFKA_NAMESPACE: namespace,
    REDIS_KEY_PREFIX: names.REDIS_KEY_PREFIX ?? '',
    KAFKA_TOPICS_FILE: join(ROOT, 'deploy/local/topics.txt'),
    INTERNAL_SECRET: randomBytes(24).toString('base64url'),
    LOG_LEVEL: 'warn',
  };
  const ports = { users: await freePort(), posts: await freePort(), gateway: await freePort(), dispatch: await freePort() };
  const serviceUrls = `users-bots=http://127.0.0.1:${ports.users},posts=http://127.0.0.1:${ports.posts},outgoing-dispatch=http://127.0.0.1:${ports.dispatch}`;
  const base = { ...env, SERVICE_URLS: serviceUrls };
  const fixed = [
    new ServiceProcess('users-bots', ports.users, { ...base, MONGO_DB: `${names.MONGO_DB_PREFIX}users` }),
    new ServiceProcess('posts', ports.posts, { ...base, MONGO_DB: `${names.MONGO_DB_PREFIX}posts` }),
    new ServiceProcess('gateway', ports.gateway, { ...base, UPSTREAM_TIMEOUT_MS: '10000' }),
  ];
  let dispatchers: ServiceProcess[] = [];
  const stopAll = async (): Promise<void> => {
    for (const p of [...dispatchers, ...fixed].reverse()) await p.stop();
    dispatchers = [];
    if (names.RUN_ID) await cleanupRun(names.RUN_ID);
  };
  try {
    for (const p of fixed) p.start();
    for (const p of fixed) await p.waitReady();
    const gatewayUrl = fixed[2]?.url ?? '';
    const token = await bootstrapAdmin(gatewayUrl);
    const patched = await call(gatewayUrl, 'PUT', '/api/v4/config/patch', { token, body: { ServiceSettings: { AllowedUntrustedInternalConnections: '127.0.0.1' } } });
    if (patched.status !== 200) throw new Error(`config patch: ${patched.status}`);
    let round = 0;
    return {
      gatewayUrl,
      token,
      startDispatchers: async (count, options = {}) => {
        round += 1;
        // The first listens on the port the gateway knows (hook CRUD); all of them dispatch.
        for (let i = 0; i < count; i += 1) {
          const port = i === 0 ? ports.dispatch : await freePort();
          dispatchers.push(new ServiceProcess('outgoing-dispatch', port, { ...base, ...options.env, MONGO_DB: `${names.MONGO_DB_PREFIX}outgoing`, INSTANCE_ID: `bench-r${round}-d${i + 1}` }, options.nodeArgs));
        }
        for (const d of dispatchers) d.start();
        for (const d of dispatchers) await d.waitReady();
        return dispatchers;
      },
      groupsStable: (count) => waitStableGroups(servers.KAFKA_BROKERS ?? '', namespace, count),
      stopDispatchers: async () => {
        for (const d of dispatchers) await d.stop();
        dispatchers = [];
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

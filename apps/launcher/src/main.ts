import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readEnvFile } from './env-file';
import { processName, SERVICE_TABLE, serviceUrls, withPortBase, withReplicas } from './service-table';

/**
 * `npm run start:distributed`: one process per service against the Kafka, MongoDB and Redis URLs in the
 * environment or in deploy/local/.env. The gateway listens on PORT (default 8065), the others on
 * 8066.. (or SERVICE_PORT_BASE..). MONGO_DB_PREFIX prefixes every service's database and KAFKA_NAMESPACE
 * its topics and consumer groups, so a test run can share the servers with another deployment.
 * REALTIME_REPLICAS=n runs n realtime processes (the gateway spreads WebSocket upgrades over them and
 * skips one that is down). SIGTERM/SIGINT stop every service (each drains and commits); if one exits on
 * its own, all stop.
 * Every service runs through deploy/node-runtime.sh (the heap and malloc settings of deploy/node-runtime.env).
 * CPU_PROF_DIR=<dir> runs every service with `node --cpu-prof` (Node refuses it in NODE_OPTIONS); each
 * writes `<dir>/<service>/*.cpuprofile` when it stops (replicas: one file each).
 */
const root = resolve(__dirname, '../../..');
const NODE_RUNTIME = join(root, 'deploy', 'node-runtime.sh');
const fileEnv = readEnvFile(join(root, 'deploy/local/.env'));
const env: NodeJS.ProcessEnv = { ...fileEnv, ...process.env };
for (const key of ['KAFKA_BROKERS', 'MONGO_URL', 'REDIS_URL']) {
  if (!env[key]) {
    process.stderr.write(`start:distributed needs ${key}: run 'bash deploy/local/up.sh' (writes deploy/local/.env) or set it.\n`);
    process.exit(1);
  }
}
env.INTERNAL_SECRET ??= randomBytes(32).toString('base64url');
// Each service serves its metrics on its own port (PORT + 1000 by default): one METRICS_PORT for all would clash.
delete env.METRICS_PORT;
const topicsFile = join(root, 'deploy/local/topics.txt');
if (env.KAFKA_TOPICS_FILE === undefined && existsSync(topicsFile)) env.KAFKA_TOPICS_FILE = topicsFile;
const portBase = env.SERVICE_PORT_BASE ? Number(env.SERVICE_PORT_BASE) : undefined;
if (portBase !== undefined && !(Number.isInteger(portBase) && portBase > 0 && portBase < 65_000)) {
  process.stderr.write(`SERVICE_PORT_BASE must be a port number, got ${env.SERVICE_PORT_BASE}\n`);
  process.exit(1);
}
const dbPrefix = env.MONGO_DB_PREFIX ?? '';
const realtimeReplicas = Number(env.REALTIME_REPLICAS ?? '1');
if (!(Number.isInteger(realtimeReplicas) && realtimeReplicas >= 1 && realtimeReplicas <= 8)) {
  process.stderr.write(`REALTIME_REPLICAS must be 1..8, got ${env.REALTIME_REPLICAS}\n`);
  process.exit(1);
}

const specs = withPortBase(
  withReplicas(
    SERVICE_TABLE.filter((s) => existsSync(join(root, 'services', s.name, 'dist', 'main.js'))),
    'realtime',
    realtimeReplicas,
  ),
  portBase,
);
const urls = serviceUrls(specs);
const children = new Map<string, ChildProcess>();
let stopping = false;

function start(name: string): void {
  const spec = specs.find((s) => processName(s) === name);
  if (!spec) throw new Error(`unknown service ${name}`);
  const dist = join(root, 'services', spec.name, 'dist');
  const instrumentation = join(dist, 'instrumentation.js');
  const profile = env.CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${join(env.CPU_PROF_DIR, spec.name)}`] : [];
  const args = [...profile, ...(existsSync(instrumentation) ? ['--require', instrumentation] : []), join(dist, 'main.js')];
  const port = spec.name === 'gateway' ? (env.PORT ?? String(spec.port)) : String(spec.port);
  // Through deploy/node-runtime.sh, as npm start and the images: the same heap and malloc settings (it execs node, same pid).
  const child = spawn('sh', [NODE_RUNTIME, ...args], {
    env: {
      ...env,
      NODE: process.execPath,
      PORT: port,
      SERVICE_URLS: urls,
      ...(spec.dbName ? { MONGO_DB: `${dbPrefix}${spec.dbName}` } : {}),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.on('exit', (code, signal) => {
    process.stderr.write(`${name} exited (${signal ?? code})\n`);
    if (children.get(name) === child) children.delete(name);
    if (!stopping) shutdown(1);
  });
  children.set(name, child);
}

for (const spec of specs) start(processName(spec));
process.stdout.write(
  `Switchyard (distributed): ${specs.map((s) => `${processName(s)}:${s.name === 'gateway' ? (env.PORT ?? s.port) : s.port}`).join(', ')}; gateway on port ${env.PORT ?? 8065}; pids ${[...children].map(([n, c]) => `${n}=${c.pid}`).join(' ')}\n`,
);

function shutdown(code: number): void {
  if (stopping) return;
  stopping = true;
  const running = [...children.values()];
  if (running.length === 0) process.exit(code);
  for (const child of running) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 20_000).unref();
  let alive = running.length;
  for (const child of running) child.once('exit', () => (alive -= 1) === 0 && process.exit(code));
}
process.once('SIGTERM', () => shutdown(0));
process.once('SIGINT', () => shutdown(0));

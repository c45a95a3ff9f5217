/**
 * The distributed runtime for a benchmark, started by the benchmark itself (apps/launcher, one process per
 * service) on the real Kafka, MongoDB-wire and Redis of deploy/local/.env (or the environment), isolated as
 * scripts/test-distributed.sh does: its own topics and consumer groups (KAFKA_NAMESPACE), databases
 * (MONGO_DB_PREFIX) and Redis keys (REDIS_KEY_PREFIX), removed again by the launcher's cleanup; services on
 * free loopback ports. `extraEnv` is passed to every service (e.g. REALTIME_REPLICAS).
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

const HERE = join(__dirname, '..', '..');

export interface DistributedProcess {
  readonly url: string;
  /** Service name (`realtime`, `realtime#2`, `gateway`, ...) → pid, from the launcher's start line. */
  readonly pids: Readonly<Record<string, number>>;
  /** Prefix of every service's MongoDB database in this run (`<prefix>switchyard_posts`, ...). */
  readonly mongoDbPrefix: string;
  stop(): Promise<void>;
}

function envFile(): Record<string, string> {
  const env: Record<string, string> = {};
  try {
    for (const line of readFileSync(join(HERE, 'deploy', 'local', '.env'), 'utf8').split('\n')) {
      const match = /^([A-Z_]+)=(.*)$/.exec(line.trim());
      if (match?.[1]) env[match[1]] = match[2] ?? '';
    }
  } catch {
    // only the environment
  }
  return env;
}

/** The servers' settings: deploy/local/.env, overridden by the environment. */
export function serverEnv(): Record<string, string | undefined> {
  return { ...envFile(), ...process.env };
}

/** Whether Kafka, MongoDB and Redis are configured (else the distributed figures are skipped). */
export function serversConfigured(): boolean {
  const env = serverEnv();
  return Boolean(env.KAFKA_BROKERS && env.MONGO_URL && env.REDIS_URL);
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer().once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A free gateway port and `count` consecutive free ports for the services. */
async function freePorts(count: number): Promise<{ gateway: number; base: number }> {
  for (let i = 0; i < 200; i += 1) {
    const gateway = 20_000 + Math.floor(Math.random() * 30_000);
    const base = 20_000 + Math.floor(Math.random() * 30_000);
    if (gateway >= base && gateway < base + count) continue;
    const ports = [gateway, ...Array.from({ length: count }, (_, k) => base + k)];
    // The metrics listeners (port + 1000) must be free too.
    if ((await Promise.all(ports.flatMap((p) => [portFree(p), portFree(p + 1000)]))).every(Boolean)) return { gateway, base };
  }
  throw new Error('no free ports for the distributed runtime');
}

export async function startDistributedProcess(extraEnv: Readonly<Record<string, string>> = {}): Promise<DistributedProcess> {
  // BENCH_DISTRIBUTED_ROOT: another checkout's build as it is (a before/after in one sitting); else this one, built now.
  const ROOT = process.env.BENCH_DISTRIBUTED_ROOT ?? HERE;
  const build = process.env.BENCH_DISTRIBUTED_ROOT ? { status: 0, stdout: '', stderr: '' } : spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`tsc -b failed:\n${(build.stdout + build.stderr).slice(0, 2000)}`);
  const replicas = Number(extraEnv.REALTIME_REPLICAS ?? '1');
  const { gateway, base } = await freePorts(5 + replicas);
  const runId = `bench${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const child = spawn(process.execPath, [join(ROOT, 'apps', 'launcher', 'dist', 'main.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...extraEnv,
      PORT: String(gateway),
      SERVICE_PORT_BASE: String(base),
      MONGO_DB_PREFIX: `${runId}_`,
      KAFKA_NAMESPACE: `${runId}.`,
      REDIS_KEY_PREFIX: `${runId}:`,
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let started = '';
  child.stdout.on('data', (chunk: Buffer) => {
    if (started.length < 10_000) started += chunk.toString('utf8');
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${gateway}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    spawnSync(process.execPath, [join(ROOT, 'apps', 'launcher', 'dist', 'cleanup.js'), runId], { cwd: ROOT, stdio: 'ignore' });
  };
  const until = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error('the distributed runtime exited while starting');
    try {
      if ((await fetch(`${url}/api/v4/system/ping`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) {
      await stop();
      throw new Error('the distributed runtime was not ready within 120 s');
    }
    await delay(500);
  }
  const pids: Record<string, number> = {};
  for (const match of started.matchAll(/([a-z-]+(?:#\d+)?)=(\d+)/g)) if (match[1] && match[2]) pids[match[1]] = Number(match[2]);
  return { url, pids, mongoDbPrefix: `${runId}_`, stop };
}

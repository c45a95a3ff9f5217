import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '../../../..');

/** The real servers' URLs, or why the drills must be skipped. */
export function realServers(): { env: Record<string, string>; skip: false } | { skip: string } {
  const { KAFKA_BROKERS, MONGO_URL, REDIS_URL } = process.env;
  if (!KAFKA_BROKERS || !MONGO_URL || !REDIS_URL) return { skip: 'KAFKA_BROKERS, MONGO_URL and REDIS_URL not all set: run deploy/local/up.sh' };
  for (const name of ['gateway', 'users-bots']) {
    if (!existsSync(join(ROOT, 'services', name, 'dist', 'main.js'))) return { skip: `services/${name}/dist/main.js missing: run npx tsc -b` };
  }
  return { env: { KAFKA_BROKERS, MONGO_URL, REDIS_URL }, skip: false };
}

/**
 * A port for a drill's service, free when asked, below the OS's ephemeral range (Linux: 32768-60999).
 * An ephemeral port (listen(0)) closed again can be taken by anything else that binds port 0 meanwhile (an
 * embedded runtime or receiver of a suite running beside the drill): the service then fails to bind, and its
 * readiness probe may be answered by that other server. Never the same port twice in one process either
 * (the kernel may give a just-closed port again, and two services of one drill must never share one).
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = 20_000 + randomInt(12_000);
    if (!handedOut.has(port) && (await bindable(port))) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error('no free port in 20000-31999 after 200 tries');
}

/** Ports freePort returned in this process. */
const handedOut = new Set<number>();

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Names that keep one drill's topics, groups, databases and Redis keys apart from everything else. */
export function isolation(): Record<string, string> {
  const run = `drill${randomBytes(5).toString('hex')}`;
  return { KAFKA_NAMESPACE: `${run}.`, MONGO_DB_PREFIX: `${run}_`, REDIS_KEY_PREFIX: `${run}:`, RUN_ID: run };
}

/** One service process (`node --require instrumentation.js dist/main.js`) whose JSON log lines are kept. */
export class ServiceProcess {
  public readonly lines: Record<string, unknown>[] = [];
  public readonly stderr: string[] = [];
  private child: ChildProcess | undefined;
  private exited: Promise<number | null> | undefined;

  public constructor(
    public readonly name: string,
    public readonly port: number,
    private readonly env: Record<string, string>,
    /** Extra node options before the script (e.g. `--cpu-prof`, which NODE_OPTIONS does not take). */
    private readonly nodeArgs: readonly string[] = [],
  ) {}

  public start(): void {
    const dist = join(ROOT, 'services', this.name, 'dist');
    const child = spawn(process.execPath, [...this.nodeArgs, '--require', join(dist, 'instrumentation.js'), join(dist, 'main.js')], {
      env: { PATH: process.env.PATH ?? '', ...this.env, PORT: String(this.port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let buffered = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      let newline = buffered.indexOf('\n');
      while (newline >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        try {
          this.lines.push(JSON.parse(line) as Record<string, unknown>);
        } catch {
          // not a log line (e.g. a console exporter's output)
        }
        newline = buffered.indexOf('\n');
      }
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => this.stderr.push(chunk));
    this.exited = new Promise((resolveExit) => child.once('exit', (code) => resolveExit(code)));
    this.child = child;
  }

  /** The running child's process id (undefined before start). */
  public get pid(): number | undefined {
    return this.child?.pid;
  }

  public get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** SIGKILL: no shutdown at all (a crash, an OOM kill). */
  public async kill(): Promise<void> {
    this.child?.kill('SIGKILL');
    await this.exited;
  }

  /** How the process ended (`exit 1`, `signal SIGKILL`), undefined while it runs or before start. */
  public get ended(): string | undefined {
    if (this.child?.exitCode !== null && this.child?.exitCode !== undefined) return `exit ${this.child.exitCode}`;
    if (this.child?.signalCode) return `signal ${this.child.signalCode}`;
    return undefined;
  }

  /**
   * SIGTERM and wait: the graceful path. Returns the exit code. A process still running `killAfterMs` later is
   * SIGKILLed (a shutdown stuck on a dead dependency must not keep a drill's file, and CI, waiting forever).
   */
  public async stop(killAfterMs = 30_000): Promise<number | null> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return child?.exitCode ?? null;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    try {
      return (await this.exited) ?? null;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Services start from their built dist (never through tsx). Five started together were all ready after
   * 23-32 s at a 1-minute load of 20-28 on 2 cores (the MongoDB and Kafka/Redis outage drills, 2026-11-23);
   * 90 s leaves room for a load near 40 and still fails a service that will never be ready.
   */
  public async waitReady(path = '/health/ready', timeoutMs = 90_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      if (this.child?.exitCode !== null && this.child?.exitCode !== undefined) {
        throw new Error(`${this.name} exited with ${this.child.exitCode}: ${this.stderr.join('').slice(-2000)}`);
      }
      try {
        const res = await fetch(`${this.url}${path}`);
        if (res.status === 200) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`${this.name} not ready after ${timeoutMs} ms: ${this.stderr.join('').slice(-2000)}`);
  }
}

/** Runs the launcher's cleanup for a drill's run id (topics, groups, databases, Redis keys). */
export async function cleanupRun(runId: string): Promise<void> {
  const child = spawn(process.execPath, [join(ROOT, 'apps/launcher/dist/cleanup.js'), runId], { stdio: 'ignore' });
  await new Promise((r) => child.once('exit', r));
}

export interface Json {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly headers: Headers;
}

export async function call(
  base: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Json> {
  const res = await fetch(`${base}${path}`, {
    method,
    ...(options.timeoutMs !== undefined ? { signal: AbortSignal.timeout(options.timeoutMs) } : {}),
    headers: {
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.headers ?? {}),
    },
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
  } catch {
    body = { text };
  }
  return { status: res.status, body, headers: res.headers };
}

/** Creates the first user (system admin) and logs in; returns its session token. */
export async function bootstrapAdmin(base: string): Promise<string> {
  const created = await call(base, 'POST', '/api/v4/users', { body: { username: 'drilladmin', email: 'drilladmin@example.com', password: 'Drill-admin-pass1' } });
  if (created.status !== 201) throw new Error(`first user: ${created.status} ${JSON.stringify(created.body)}`);
  const login = await call(base, 'POST', '/api/v4/users/login', { body: { login_id: 'drilladmin', password: 'Drill-admin-pass1' } });
  const token = login.headers.get('token');
  if (login.status !== 200 || !token) throw new Error(`login: ${login.status}`);
  return token;
}

/**
 * Starts the named services (from their built dist, all at once) on free loopback ports, each told the
 * others' addresses (SERVICE_URLS, the gateway excluded), and waits until every one is ready.
 */
export async function startServices(names: readonly string[], env: Record<string, string>): Promise<Map<string, ServiceProcess>> {
  const ports = new Map<string, number>();
  for (const name of names) ports.set(name, await freePort());
  const urls = names.filter((n) => n !== 'gateway').map((n) => `${n}=http://127.0.0.1:${ports.get(n)}`).join(',');
  const processes = new Map(names.map((name) => [name, new ServiceProcess(name, ports.get(name) ?? 0, { SERVICE_URLS: urls, ...env })]));
  const started = Date.now();
  for (const p of processes.values()) p.start();
  const readyAfter: string[] = [];
  for (const [name, p] of processes) {
    await p.waitReady();
    readyAfter.push(`${name} ${Date.now() - started} ms`);
  }
  console.log(`services ready (from dist, started together; load average ${loadavg()[0]?.toFixed(2)}): ${readyAfter.join(', ')}`);
  return processes;
}

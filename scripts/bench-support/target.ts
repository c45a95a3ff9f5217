/**
 * What every benchmark module shares: the loopback rule, a small JSON caller, the admin login, the embedded
 * runtime in a process of its own (compiled, as `npm start` runs it, so the load generator does not share its
 * event loop and no TypeScript loader runs in it) and its RSS.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ADMIN = { username: 'sysadmin', password: 'Sys-admin-pass1', email: 'sysadmin@example.com' } as const;

export function assertLoopback(url: string): void {
  const host = new URL(url).hostname;
  if (!['127.0.0.1', 'localhost', '[::1]', '::1'].includes(host)) throw new Error(`benchmarks only run against loopback, got ${host}`);
}

export interface CallResult {
  readonly status: number;
  readonly json: unknown;
  readonly headers: Headers;
}

export async function call(url: string, method: string, path: string, body?: unknown, token?: string): Promise<CallResult> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text && (response.headers.get('content-type') ?? '').startsWith('application/json') ? JSON.parse(text) : text, headers: response.headers };
}

/** `call` that insists on one status and returns the JSON object. */
export async function must(url: string, method: string, path: string, body: unknown, token: string, status: number): Promise<Record<string, unknown>> {
  const res = await call(url, method, path, body, token);
  if (res.status !== status) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.json).slice(0, 300)}`);
  return res.json as Record<string, unknown>;
}

/** Logs in as the benchmark admin, creating it with the first sign-up on a fresh server. */
export async function adminToken(url: string): Promise<string> {
  const login = () => call(url, 'POST', '/api/v4/users/login', { login_id: ADMIN.username, password: ADMIN.password });
  let res = await login();
  if (res.status !== 200) {
    await call(url, 'POST', '/api/v4/users', ADMIN);
    res = await login();
  }
  const token = res.headers.get('token');
  if (res.status !== 200 || !token) throw new Error(`cannot log in as ${ADMIN.username}: ${res.status}`);
  return token;
}

export interface EmbeddedProcess {
  readonly url: string;
  readonly pid: number;
  stop(): Promise<void>;
}

/**
 * The runtime's command line. By default the compiled dist, as `npm start` runs it (after `tsc -b`, so the
 * figures are of the current sources); BENCH_RUNTIME=source runs the sources through tsx like `npm run dev`.
 */
/**
 * The runtime starts through `deploy/node-runtime.sh --embedded` as `npm start` does, so it has the same heap and
 * malloc settings (deploy/node-runtime.env, EMBEDDED_NODE_OPTIONS included: another build run here gets them too);
 * BENCH_HEAP_MB: another old space.
 */
const NODE_RUNTIME = join(__dirname, '..', '..', 'deploy', 'node-runtime.sh');
const START_FLAGS = process.env.BENCH_HEAP_MB ? [`--max-old-space-size=${Number(process.env.BENCH_HEAP_MB)}`] : [];
/** `BENCH_NODE_ARGS`: more node flags for the embedded runtime, after the heap flags (so they can override them). */
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);

function runtimeArgs(root: string): string[] {
  // Another build as it is (e.g. a checkout of the commit before a change, for a before/after in one sitting).
  if (process.env.BENCH_RUNTIME_DIST) return [...START_FLAGS, ...NODE_ARGS, process.env.BENCH_RUNTIME_DIST];
  if (process.env.BENCH_RUNTIME === 'source') return [...START_FLAGS, ...NODE_ARGS, '--conditions=source', '--import', 'tsx', join(root, 'apps', 'embedded', 'src', 'main.ts')];
  const build = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (build.status !== 0) {
    throw new Error(`tsc -b failed, so dist is not the current sources (BENCH_RUNTIME=source runs them through tsx):\n${(build.stdout + build.stderr).slice(0, 2000)}`);
  }
  return [...START_FLAGS, ...NODE_ARGS, join(root, 'apps', 'embedded', 'dist', 'main.js')];
}

/**
 * `BENCH_CPU_PROF=<dir>` writes a CPU profile of the runtime; `BENCH_NODE_ARGS` adds node flags. Resolves with the URL once it listens.
 * `options.dataDir`: run on that data directory and keep it (default: a fresh one, removed at stop).
 */
export async function startEmbeddedProcess(options: { readonly dataDir?: string } = {}): Promise<EmbeddedProcess> {
  const root = join(__dirname, '..', '..');
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  // BENCH_NODE_ARGS: more node flags for the runtime (e.g. `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=/tmp/x`).
  profile.push(...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== ''));
  // A fresh durable store per run (DATA_DIR), removed when the runtime stops.
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'switchyard-bench-'));
  const child = spawn('sh', [NODE_RUNTIME, '--embedded', ...profile, ...runtimeArgs(root)], {
    cwd: root,
    env: { ...process.env, NODE: process.execPath, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'error', DATA_DIR: dataDir, METRICS_PORT: process.env.METRICS_PORT ?? '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // `BENCH_RUNTIME_LOG=<file>`: the runtime's stdout is kept there (e.g. `--trace-gc` given by BENCH_NODE_ARGS).
  if (process.env.BENCH_RUNTIME_LOG) child.stdout.pipe(createWriteStream(process.env.BENCH_RUNTIME_LOG));
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error('the embedded runtime did not start within 60 s')), 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const match = /listening on (http:\/\/[^\s;,]+)/.exec(seen);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1].replace('://0.0.0.0', '://127.0.0.1').replace(/\/+$/, ''));
      }
    });
    child.once('exit', (code) => reject(new Error(`the embedded runtime exited with ${code}`)));
  });
  child.stdout.resume();
  return {
    url,
    pid: child.pid ?? 0,
    stop: () =>
      new Promise<void>((resolve) => {
        const done = (): void => {
          if (options.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
          resolve();
        };
        if (child.exitCode !== null) return done();
        child.once('exit', done);
        child.kill('SIGTERM');
      }),
  };
}

export function rssMb(pid: number): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Math.round(Number(kb) / 1024);
  } catch {
    return undefined;
  }
}

/** Which targets to measure: BENCH_TARGETS=embedded,distributed (default both; distributed needs SWITCHYARD_URL). */
export function wantsTarget(name: 'embedded' | 'distributed'): boolean {
  return (process.env.BENCH_TARGETS ?? 'embedded,distributed').split(',').includes(name);
}

/** SWITCHYARD_URL (a running distributed Switchyard on loopback), without a trailing slash. */
export function externalTarget(): string | undefined {
  const external = process.env.SWITCHYARD_URL;
  if (!external) return undefined;
  const url = external.replace(/\/+$/, '');
  assertLoopback(url);
  return url;
}

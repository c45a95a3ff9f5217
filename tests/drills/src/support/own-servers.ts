import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, ROOT } from './processes';

export type ServerName = 'kafka' | 'mongo' | 'redis';
/** mongo-java-server keeps its data in memory (a restart empties it); FerretDB keeps it in SQLite files. */
export type MongoServer = 'mongo-java-server' | 'ferretdb';

/** The installs deploy/local/up.sh reuses (DEPLOY_LOCAL_CACHE, default deploy/local/.cache). */
export const INSTALL_CACHE = process.env.DEPLOY_LOCAL_CACHE ?? join(ROOT, 'deploy/local/.cache');
/** The version up.sh builds (its FERRETDB_VERSION): the cached binary is kept under this name. */
const FERRETDB_VERSION = /^FERRETDB_VERSION=(\S+)$/m.exec(readFileSync(join(ROOT, 'deploy/local/up.sh'), 'utf8'))?.[1] ?? '';

/** Whether FerretDB is built in the install cache (up.sh's stamp file names its version). */
export function ferretdbCached(): boolean {
  const home = join(INSTALL_CACHE, `ferretdb-${FERRETDB_VERSION}`);
  return existsSync(join(home, 'bin', 'ferretdb')) && readFileSafe(join(home, '.installed')) === FERRETDB_VERSION;
}

/** Whether `command` is on PATH. */
export function onPath(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/**
 * A private Kafka, MongoDB-wire and Redis (deploy/local/up.sh with its own run directory and free ports),
 * so that a drill can stop and restart them without touching the servers other suites share. Installs
 * come from the shared cache (DEPLOY_LOCAL_CACHE, default deploy/local/.cache).
 */
export class OwnServers {
  public env: Record<string, string> = {};
  private readonly run = mkdtempSync(join(tmpdir(), 'switchyard-drill-servers-'));
  private readonly cmdlines = new Map<ServerName, string[]>();

  /** `ferretdb` without a cached build makes up.sh build it from the Go module proxy (minutes on a loaded box). */
  public constructor(private readonly mongo: MongoServer = 'mongo-java-server') {}

  public async start(timeoutMs = 240_000): Promise<void> {
    // Every port up.sh binds, S3Proxy's included: a default port would collide with the shared servers (or take
    // theirs while they are down, and stop it with this drill).
    const ports = { KAFKA_PORT: await freePort(), KAFKA_CONTROLLER_PORT: await freePort(), MONGO_PORT: await freePort(), REDIS_PORT: await freePort(), S3_PORT: await freePort() };
    const envFile = join(this.run, 'servers.env');
    const result = spawnSync('bash', [join(ROOT, 'deploy/local/up.sh')], {
      env: {
        ...process.env,
        ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
        KAFKA_SASL_SSL_PORT: '0',
        KAFKA_MTLS_PORT: '0',
        MONGO_SERVER: this.mongo,
        DEPLOY_LOCAL_RUN: join(this.run, 'run'),
        DEPLOY_LOCAL_ENV_FILE: envFile,
        DEPLOY_LOCAL_CACHE: INSTALL_CACHE,
      },
      encoding: 'utf8',
      timeout: timeoutMs,
    });
    if (result.status !== 0) throw new Error(`up.sh for the drill's own servers failed (${result.status}): ${result.stderr.slice(-3000)}${result.stdout.slice(-2000)}`);
    for (const line of readFileSync(envFile, 'utf8').split('\n')) {
      const match = /^([A-Z_]+)=(.*)$/.exec(line.trim());
      if (match?.[1] && match[2] !== undefined) this.env[match[1]] = match[2];
    }
  }

  public pid(name: ServerName): number {
    const line = readFileSync(join(this.run, 'run', 'pids'), 'utf8').split('\n').filter((l) => l.startsWith(`${name} `)).pop();
    const pid = Number(line?.split(' ')[1]);
    if (!Number.isInteger(pid)) throw new Error(`no pid recorded for ${name}`);
    return pid;
  }

  /** SIGTERM and wait until the process is gone (bounded); its command line is kept for restart(). */
  public async stop(name: ServerName, timeoutMs = 30_000): Promise<void> {
    const pid = this.pid(name);
    this.cmdlines.set(name, name === 'redis' ? this.redisCommand() : readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((a) => a !== ''));
    process.kill(pid, 'SIGTERM');
    const until = Date.now() + timeoutMs;
    while (alive(pid)) {
      if (Date.now() > until) {
        process.kill(pid, 'SIGKILL');
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Redis rewrites its process title, so its command line is up.sh's, rebuilt (same port and directory). */
  private redisCommand(): string[] {
    const port = new URL(this.env.REDIS_URL ?? '').port;
    const dir = join(this.run, 'run', 'redis');
    return ['redis-server', '--daemonize', 'yes', '--bind', '127.0.0.1', '--port', port, '--save', '', '--appendonly', 'no', '--pidfile', join(dir, 'redis.pid'), '--dir', dir, '--logfile', join(dir, 'redis.log')];
  }

  /** Starts the server again with the same command line (same data directory) and records its new pid. */
  public async restart(name: ServerName): Promise<void> {
    const cmd = this.cmdlines.get(name);
    if (!cmd?.[0]) throw new Error(`${name} was not stopped by this drill`);
    if (name === 'redis') rmSync(cmd[cmd.indexOf('--pidfile') + 1] ?? '', { force: true });
    const log = openSync(join(this.run, `${name}-restart.log`), 'a');
    const child = spawn(cmd[0], cmd.slice(1), { detached: true, stdio: ['ignore', log, log] });
    child.unref();
    let pid = child.pid ?? 0;
    if (name === 'redis') {
      // Its command line daemonizes: the server's pid is in its pidfile (removed above, before the start).
      const pidfile = cmd[cmd.indexOf('--pidfile') + 1] ?? '';
      const until = Date.now() + 10_000;
      while (Date.now() < until && !(pid = Number(readFileSafe(pidfile)))) await new Promise((r) => setTimeout(r, 50));
    }
    const pids = join(this.run, 'run', 'pids');
    writeFileSync(pids, `${readFileSync(pids, 'utf8').trimEnd()}\n${name} ${pid}\n`);
  }

  /** For a failure message: whether the server's recorded process runs, and the end of its restart log. */
  public describe(name: ServerName): string {
    let pid = 0;
    try {
      pid = this.pid(name);
    } catch {
      return `${name}: no pid recorded`;
    }
    const log = readFileSafe(join(this.run, `${name}-restart.log`)).slice(-1_500);
    return `${name} pid ${pid} ${alive(pid) ? 'running' : 'NOT running'}${log ? `; restart log: ${log}` : ''}`;
  }

  /** down.sh for this run directory (stops every recorded pid, restarted ones included), then removes it. */
  public stopAll(): void {
    spawnSync('bash', [join(ROOT, 'deploy/local/down.sh')], { env: { ...process.env, DEPLOY_LOCAL_RUN: join(this.run, 'run') }, stdio: 'ignore', timeout: 60_000 });
    rmSync(this.run, { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function readFileSafe(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return '';
  }
}

/**
 * The processes of a benchmark target: the embedded runtime's pid, or for a distributed target
 * (SWITCHYARD_URL) the process listening on the gateway's port, its parent launcher and the launcher's other
 * children (one per service), and the processes listening on the ports of KAFKA_BROKERS, MONGO_URL and
 * REDIS_URL (from the environment, else deploy/local/.env). BENCH_PIDS=name=pid,... replaces the discovery.
 */
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

export interface TargetProcess {
  readonly name: string;
  readonly pid: number;
  /** Kafka, MongoDB-wire, Redis: shared servers whose CPU may include other clients' work. */
  readonly infrastructure: boolean;
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

function allPids(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number);
}

/** Socket inodes listening on the port (IPv4 and IPv6). */
function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      const local = cols[1];
      if (!local || cols[3] !== '0A') continue;
      if (parseInt(local.slice(local.lastIndexOf(':') + 1), 16) === port && cols[9]) inodes.add(cols[9]);
    }
  }
  return inodes;
}

/** The process listening on the TCP port, if this user may see it. */
export function pidListeningOn(port: number): number | undefined {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return undefined;
  for (const pid of allPids()) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const link = readlinkSync(join(`/proc/${pid}/fd`, fd));
        const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
        if (inode && inodes.has(inode)) return pid;
      } catch {
        // the fd closed meanwhile
      }
    }
  }
  return undefined;
}

function serverEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  try {
    for (const line of readFileSync(join(__dirname, '..', '..', 'deploy', 'local', '.env'), 'utf8').split('\n')) {
      const match = /^([A-Z_]+)=(.*)$/.exec(line.trim());
      if (match?.[1]) env[match[1]] = match[2] ?? '';
    }
  } catch {
    // no deploy/local/.env: only the environment
  }
  for (const key of ['KAFKA_BROKERS', 'MONGO_URL', 'REDIS_URL']) {
    const value = process.env[key];
    if (value) env[key] = value;
  }
  return env;
}

function portOf(address: string | undefined): number | undefined {
  if (!address) return undefined;
  const first = address.split(',')[0] ?? '';
  const match = /:(\d+)(?:\/|$)/.exec(first.replace(/^[a-z]+:\/\//, ''));
  return match?.[1] ? Number(match[1]) : undefined;
}

function fromOverride(value: string): TargetProcess[] {
  return value
    .split(',')
    .map((entry) => entry.trim().split('='))
    .filter((pair): pair is [string, string] => pair.length === 2 && /^\d+$/.test(pair[1] ?? ''))
    .map(([name, pid]) => ({ name, pid: Number(pid), infrastructure: /kafka|mongo|redis/.test(name) }));
}

/** The embedded runtime is one process. */
export function embeddedProcesses(pid: number): TargetProcess[] {
  return [{ name: 'embedded', pid, infrastructure: false }];
}

/** The processes of a distributed target at `url` (see the file comment). */
export function distributedProcesses(url: string): TargetProcess[] {
  if (process.env.BENCH_PIDS) return fromOverride(process.env.BENCH_PIDS);
  const found: TargetProcess[] = [];
  const gatewayPort = Number(new URL(url).port || 80);
  const gateway = pidListeningOn(gatewayPort);
  if (gateway !== undefined) {
    const launcher = parentOf(gateway);
    const launcherLine = launcher === undefined ? '' : cmdline(launcher);
    if (launcher !== undefined && /launcher/.test(launcherLine)) {
      found.push({ name: 'launcher', pid: launcher, infrastructure: false });
      for (const pid of allPids()) {
        if (parentOf(pid) !== launcher) continue;
        const name = /services\/([a-z-]+)\//.exec(cmdline(pid))?.[1] ?? `pid ${pid}`;
        found.push({ name, pid, infrastructure: false });
      }
    } else {
      found.push({ name: 'gateway', pid: gateway, infrastructure: false });
    }
  }
  return [...found, ...infrastructureProcesses()];
}

/** The processes listening on the ports of KAFKA_BROKERS, MONGO_URL and REDIS_URL (those this user may see). */
export function infrastructureProcesses(): TargetProcess[] {
  const found: TargetProcess[] = [];
  const env = serverEnv();
  for (const [name, address] of [
    ['kafka', env.KAFKA_BROKERS],
    ['mongodb-wire', env.MONGO_URL],
    ['redis', env.REDIS_URL],
  ] as const) {
    const port = portOf(address);
    const pid = port === undefined ? undefined : pidListeningOn(port);
    if (pid !== undefined) found.push({ name, pid, infrastructure: true });
  }
  return found;
}

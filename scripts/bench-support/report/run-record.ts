/**
 * What one `npm run bench` run was: the machine, the commit, the command and settings, and each module's
 * returned figures. The report (report.ts) is written from this and nothing else.
 */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg, release, totalmem, type } from 'node:os';

export interface ModuleRun {
  readonly module: string;
  readonly seconds: number;
  /** What the module's run() returned (its figures), or undefined. */
  readonly figures: unknown;
  readonly error?: string;
}

export interface RunContext {
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly commit: string;
  readonly command: string;
  /** The BENCH_* settings and SWITCHYARD_URL in effect. */
  readonly settings: Readonly<Record<string, string>>;
  readonly machine: {
    readonly cpu: string;
    readonly cores: number;
    readonly memoryGb: number;
    readonly os: string;
    readonly node: string;
  };
  /** 1-minute load average at the start and the end: the box may be shared. */
  readonly loadBefore: number;
  readonly loadAfter: number;
  /** Where the distributed target came from: SWITCHYARD_URL, started by the run, or none. */
  readonly distributed: string;
}

function gitCommit(): string {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return dirty ? `${sha} (with uncommitted changes)` : sha;
  } catch {
    return 'unknown';
  }
}

export function benchSettings(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env)
      .filter(([key, value]) => value !== undefined && (key.startsWith('BENCH_') || key === 'SWITCHYARD_URL'))
      .sort(([a], [b]) => a.localeCompare(b)) as [string, string][],
  );
}

export function startContext(command: string): Omit<RunContext, 'finishedAt' | 'loadAfter' | 'distributed'> {
  const cpuList = cpus();
  return {
    startedAt: new Date().toISOString(),
    commit: gitCommit(),
    command,
    settings: benchSettings(),
    machine: {
      cpu: cpuList[0]?.model.trim() ?? 'unknown',
      cores: cpuList.length,
      memoryGb: Math.round(totalmem() / 1024 ** 3),
      os: `${type()} ${release()}`,
      node: process.version,
    },
    loadBefore: loadavg()[0] ?? 0,
  };
}

export function finishContext(started: Omit<RunContext, 'finishedAt' | 'loadAfter' | 'distributed'>, distributed: string): RunContext {
  return { ...started, finishedAt: new Date().toISOString(), loadAfter: loadavg()[0] ?? 0, distributed };
}

/**
 * REST API v4 throughput: `POST /api/v4/posts` and `GET /api/v4/users/me` with autocannon (32 connections,
 * loopback, a warm-up until throughput is steady (bench-support/warm-up.ts) then BENCH_DURATION_S, default 10), against a fresh embedded runtime in its own
 * process and against SWITCHYARD_URL when set. Also prints the embedded process's idle RSS before the load.
 */
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { CpuMeter, formatCpuReport } from '../bench-support/cpu';
import { distributedProcesses, embeddedProcesses, type TargetProcess } from '../bench-support/target-processes';
import { loadFigures, requireClean, type AutocannonResult } from '../bench-support/load';
import { adminToken, externalTarget, must, rssMb, startEmbeddedProcess, wantsTarget } from '../bench-support/target';
import { formatTargets, type FigureName, type TargetName } from '../bench-support/targets';
import { warmUp } from '../bench-support/warm-up';

const requireCjs = createRequire(__filename);

type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;

const CONNECTIONS = 32;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);

export interface ApiBenchFigure {
  readonly target: string;
  readonly route: string;
  readonly requestsPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly non2xx: number;
  /** CPU ms per 2xx request: every process of the target, and Switchyard's own. */
  readonly cpuAllMs: number;
  readonly cpuSwitchyardMs: number;
}

async function load(label: TargetName, route: string, figureName: FigureName, processes: readonly TargetProcess[], options: Record<string, unknown>): Promise<ApiBenchFigure> {
  const autocannon = requireCjs('autocannon') as Autocannon;
  await warmUp(`${route} [${label}]`, (duration) => autocannon({ ...options, connections: CONNECTIONS, duration }));
  const meter = await CpuMeter.start(processes);
  const result = await autocannon({ ...options, connections: CONNECTIONS, duration: DURATION_S });
  const counted = loadFigures(result);
  const cpu = await meter.finish(counted.ok);
  // req/s counts 2xx answers only (autocannon's own average counts every answer, refusals included).
  const figure = { target: label, route, requestsPerSec: counted.okPerSec, p50Ms: result.latency.p50, p99Ms: result.latency.p99, non2xx: counted.non2xx + counted.errors, cpuAllMs: cpu.allMs, cpuSwitchyardMs: cpu.switchyardMs };
  process.stdout.write(`api ${route} [${label}] ${CONNECTIONS} connections, ${result.duration} s: ${figure.requestsPerSec} 2xx/s (${counted.ok} 2xx), p50 ${figure.p50Ms} ms, p99 ${figure.p99Ms} ms, ${counted.non2xx} non-2xx, ${counted.errors} errors\n`);
  process.stdout.write(formatCpuReport(cpu));
  process.stdout.write(formatTargets(label, figureName, route, { requestsPerSec: figure.requestsPerSec, p99Ms: figure.p99Ms, cpu }));
  requireClean(`api ${route} [${label}]`, counted);
  return figure;
}

async function measure(label: TargetName, url: string, processes: readonly TargetProcess[]): Promise<ApiBenchFigure[]> {
  const token = await adminToken(url);
  const suffix = Math.random().toString(36).slice(2, 10);
  const team = await must(url, 'POST', '/api/v4/teams', { name: `benchapi-${suffix}`, display_name: `Bench ${suffix}`, type: 'O' }, token, 201);
  const channel = await must(url, 'POST', '/api/v4/channels', { team_id: team.id, name: `bench-${suffix}`, display_name: 'Bench', type: 'O' }, token, 201);
  const auth = { authorization: `Bearer ${token}` };
  const figures = [
    await load(label, 'GET /api/v4/users/me', 'users/me', processes, { url: `${url}/api/v4/users/me`, headers: auth }),
    await load(label, 'POST /api/v4/posts', 'posts', processes, {
      url: `${url}/api/v4/posts`,
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ channel_id: channel.id, message: 'deploy #42 finished in 3m12s' }),
    }),
  ];
  process.stdout.write(`  load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${cpus().length} cores\n`);
  return figures;
}

export async function run(): Promise<ApiBenchFigure[]> {
  const figures: ApiBenchFigure[] = [];
  if (wantsTarget('embedded')) {
    const embedded = await startEmbeddedProcess();
    try {
      await delay(2_000);
      const idle = rssMb(embedded.pid);
      if (idle !== undefined) process.stdout.write(`api [embedded] idle RSS of the whole process: ${idle} MB\n`);
      figures.push(...(await measure('embedded', embedded.url, embeddedProcesses(embedded.pid))));
    } finally {
      await embedded.stop();
    }
  }
  const url = externalTarget();
  if (url && wantsTarget('distributed')) figures.push(...(await measure('distributed', url, distributedProcesses(url))));
  else process.stdout.write('api [distributed]: skipped (set SWITCHYARD_URL to a running distributed Switchyard on loopback)\n');
  return figures;
}

/**
 * `POST /hooks/{key}` throughput and latency with autocannon (32 connections, loopback): against a fresh
 * embedded runtime in this process, and against a distributed target when SWITCHYARD_URL is set.
 * Run with `npm run bench` (scripts/bench.ts); BENCH_DURATION_S overrides the 10 s measurement,
 * BENCH_TARGETS=distributed skips the embedded run.
 */
import { cpus, loadavg } from 'node:os';
import { createRequire } from 'node:module';
import { CpuMeter, distributedProcesses, embeddedProcesses, formatCpuReport, type TargetProcess } from '../bench-support/cpu';
import { adminToken, call, externalTarget, rssMb, startEmbeddedProcess, wantsTarget } from '../bench-support/target';

const requireCjs = createRequire(__filename);

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  duration: number;
  statusCodeStats?: Record<string, { count: number }>;
}

type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;

const CONNECTIONS = 32;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const WARMUP_S = 2;

/** A team, an open channel and a hook of the admin's, named uniquely for this run. */
async function prepareHook(url: string): Promise<{ key: string; channelId: string; token: string }> {
  const token = await adminToken(url);
  const suffix = Math.random().toString(36).slice(2, 10);
  const team = await call(url, 'POST', '/api/v4/teams', { name: `bench-${suffix}`, display_name: `Bench ${suffix}`, type: 'O' }, token);
  if (team.status !== 201) throw new Error(`team: ${team.status} ${JSON.stringify(team.json)}`);
  const teamId = (team.json as { id: string }).id;
  const channel = await call(url, 'POST', '/api/v4/channels', { team_id: teamId, name: `bench-${suffix}`, display_name: 'Bench', type: 'O' }, token);
  if (channel.status !== 201) throw new Error(`channel: ${channel.status} ${JSON.stringify(channel.json)}`);
  const channelId = (channel.json as { id: string }).id;
  const hook = await call(url, 'POST', '/api/v4/hooks/incoming', { channel_id: channelId, display_name: 'Bench' }, token);
  if (hook.status !== 201) throw new Error(`hook: ${hook.status} ${JSON.stringify(hook.json)}`);
  return { key: (hook.json as { id: string }).id, channelId, token };
}

/** The channel's post count (`total_msg_count` of GET /api/v4/channels/{id}). */
async function channelPostCount(url: string, channelId: string, token: string): Promise<number> {
  const channel = await call(url, 'GET', `/api/v4/channels/${channelId}`, undefined, token);
  return Number((channel.json as { total_msg_count?: unknown }).total_msg_count ?? 0);
}

async function blast(url: string, key: string, seconds: number): Promise<AutocannonResult> {
  const autocannon = requireCjs('autocannon') as Autocannon;
  return autocannon({
    url: `${url}/hooks/${key}`,
    method: 'POST',
    connections: CONNECTIONS,
    duration: seconds,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'Build #42 passed :white_check_mark: <https://ci.example/42|details>', username: 'ci' }),
  });
}

export interface IncomingHooksBenchFigure {
  readonly target: string;
  readonly requestsPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly total: number;
  readonly non2xx: number;
  readonly errors: number;
}

async function measure(label: string, url: string, processes: readonly TargetProcess[]): Promise<IncomingHooksBenchFigure> {
  const { key, token, channelId } = await prepareHook(url);
  await blast(url, key, WARMUP_S);
  const meter = await CpuMeter.start(processes);
  const postsBefore = await channelPostCount(url, channelId, token);
  const result = await blast(url, key, DURATION_S);
  const accepted = result.requests.total - result.non2xx;
  // A hook accepted is done once its post exists (IncomingWebhookAckMode=queued answers before that).
  const cpu = await meter.finish(accepted, async () => (await channelPostCount(url, channelId, token)) >= postsBefore + accepted);
  // Context on a shared box: the cheapest authenticated read, same connections, right after.
  const autocannon = requireCjs('autocannon') as Autocannon;
  const me = await autocannon({ url: `${url}/api/v4/users/me`, connections: CONNECTIONS, duration: Math.min(5, DURATION_S), headers: { authorization: `Bearer ${token}` } });
  const figure = {
    target: label,
    requestsPerSec: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
  process.stdout.write(
    `incoming-hooks POST /hooks/{key} [${label}] ${CONNECTIONS} connections, ${DURATION_S} s: ${figure.requestsPerSec} req/s, p50 ${figure.p50Ms} ms, p99 ${figure.p99Ms} ms, ` +
      `${figure.total} requests, ${figure.non2xx} non-2xx, ${figure.errors} errors\n` +
      formatCpuReport(cpu) +
      `  baseline GET /api/v4/users/me [${label}]: ${Math.round(me.requests.average)} req/s, p99 ${me.latency.p99} ms; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${cpus().length} cores\n`,
  );
  return figure;
}

export async function run(): Promise<IncomingHooksBenchFigure[]> {
  const figures: IncomingHooksBenchFigure[] = [];
  // BENCH_TARGETS=distributed skips the embedded run (e.g. when only SWITCHYARD_URL is of interest).
  if (wantsTarget('embedded')) {
    const embedded = await startEmbeddedProcess();
    try {
      figures.push(await measure('embedded', embedded.url, embeddedProcesses(embedded.pid)));
      const rss = rssMb(embedded.pid);
      if (rss !== undefined) process.stdout.write(`  embedded process RSS after the run: ${rss} MB\n`);
    } finally {
      await embedded.stop();
    }
  }
  const url = externalTarget();
  if (url && wantsTarget('distributed')) {
    figures.push(await measure('distributed', url, distributedProcesses(url)));
  } else {
    process.stdout.write('incoming-hooks [distributed]: skipped (set SWITCHYARD_URL to a running distributed Switchyard on loopback)\n');
  }
  return figures;
}

/**
 * `POST /hooks/{key}` throughput and latency with autocannon (32 connections, loopback): against a fresh
 * embedded runtime in its own process, and against a distributed target when SWITCHYARD_URL is set.
 * Counts 2xx answers only; then drains: every accepted post must be stored in the channel (a missing post
 * fails after BENCH_DRAIN_TIMEOUT_S, default 120; an extra one is reported as a duplicate and fails).
 * Run with `npm run bench` (scripts/bench.ts); BENCH_DURATION_S overrides the 10 s measurement,
 * BENCH_TARGETS=distributed skips the embedded run.
 */
import { cpus, loadavg } from 'node:os';
import { createRequire } from 'node:module';
import { CpuMeter, formatCpuReport } from '../bench-support/cpu';
import { distributedProcesses, embeddedProcesses, type TargetProcess } from '../bench-support/target-processes';
import { drain, loadFigures, requireClean, type AutocannonResult } from '../bench-support/load';
import { adminToken, call, externalTarget, rssMb, startEmbeddedProcess, wantsTarget } from '../bench-support/target';
import { formatTargets, type TargetName } from '../bench-support/targets';
import { warmUp } from '../bench-support/warm-up';

const requireCjs = createRequire(__filename);

type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;

const CONNECTIONS = 32;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);

/** A team, an open channel and a hook of the admin's, named uniquely for this run. */
async function prepareHook(url: string, token: string): Promise<{ key: string; channelId: string }> {
  const suffix = Math.random().toString(36).slice(2, 10);
  const team = await call(url, 'POST', '/api/v4/teams', { name: `bench-${suffix}`, display_name: `Bench ${suffix}`, type: 'O' }, token);
  if (team.status !== 201) throw new Error(`team: ${team.status} ${JSON.stringify(team.json)}`);
  const teamId = (team.json as { id: string }).id;
  const channel = await call(url, 'POST', '/api/v4/channels', { team_id: teamId, name: `bench-${suffix}`, display_name: 'Bench', type: 'O' }, token);
  if (channel.status !== 201) throw new Error(`channel: ${channel.status} ${JSON.stringify(channel.json)}`);
  const channelId = (channel.json as { id: string }).id;
  const hook = await call(url, 'POST', '/api/v4/hooks/incoming', { channel_id: channelId, display_name: 'Bench' }, token);
  if (hook.status !== 201) throw new Error(`hook: ${hook.status} ${JSON.stringify(hook.json)}`);
  return { key: (hook.json as { id: string }).id, channelId };
}

/** `limit`: a duration (warm-up) or a number of requests (the measurement: every request is answered). */
async function blast(url: string, key: string, limit: { duration: number } | { amount: number }): Promise<AutocannonResult> {
  const autocannon = requireCjs('autocannon') as Autocannon;
  return autocannon({
    url: `${url}/hooks/${key}`,
    method: 'POST',
    connections: CONNECTIONS,
    ...limit,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'Build #42 passed :white_check_mark: <https://ci.example/42|details>', username: 'ci' }),
  });
}

export interface IncomingHooksBenchFigure {
  readonly target: string;
  /** 2xx answers per second during the blast (each a post.create accepted). */
  readonly requestsPerSec: number;
  /** Posts stored per second, from the blast's start until every accepted post was in the channel. */
  readonly storedPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly accepted: number;
  readonly duplicates: number;
  /** CPU ms per accepted request: every process of the target, and Switchyard's own. */
  readonly cpuAllMs: number;
  readonly cpuSwitchyardMs: number;
}

const DRAIN_TIMEOUT_MS = Number(process.env.BENCH_DRAIN_TIMEOUT_S ?? 120) * 1000;

/** The channel's post count (total_msg_count, kept by posts as it stores them). */
async function postsIn(url: string, token: string, channelId: string): Promise<number> {
  const res = await call(url, 'GET', `/api/v4/channels/${channelId}`, undefined, token);
  if (res.status !== 200) throw new Error(`channel ${channelId}: ${res.status} ${JSON.stringify(res.json)}`);
  return (res.json as { total_msg_count: number }).total_msg_count;
}

async function measure(label: TargetName, url: string, processes: readonly TargetProcess[]): Promise<IncomingHooksBenchFigure> {
  const token = await adminToken(url);
  // Warm-up and measurement go to hooks of their own channels, so the measured channel holds only measured posts.
  const warm = await prepareHook(url, token);
  const { key, channelId } = await prepareHook(url, token);
  const warmed = await warmUp(`POST /hooks/{key} [${label}]`, (duration) => blast(url, warm.key, { duration }));
  await drain(`incoming-hooks warm-up [${label}]: ${warmed.ok} accepted posts stored`, async () => (await postsIn(url, token, warm.channelId)) >= warmed.ok, DRAIN_TIMEOUT_MS);
  // A fixed number of requests (about BENCH_DURATION_S at the warm-up's last rate), not a duration: a timed
  // run stops with requests in flight whose answers are never counted but whose posts are still made, so the
  // stored posts could not be matched to the accepted requests.
  const amount = Math.max(CONNECTIONS * 4, Math.round(warmed.last.okPerSec * DURATION_S));
  const meter = await CpuMeter.start(processes);
  const started = performance.now();
  const result = await blast(url, key, { amount });
  const counted = loadFigures(result);
  requireClean(`incoming-hooks POST /hooks/{key} [${label}]`, counted);
  // An answer without ?wait=true acknowledges a post.create command: the figure counts once every accepted post is stored.
  const drainS = await drain(`incoming-hooks [${label}]: ${counted.ok} accepted posts stored`, async () => (await postsIn(url, token, channelId)) >= counted.ok, DRAIN_TIMEOUT_MS);
  const totalS = (performance.now() - started) / 1000;
  const cpu = await meter.finish(counted.ok, async () => (await postsIn(url, token, channelId)) >= counted.ok);
  const stored = await postsIn(url, token, channelId);
  if (counted.ok + counted.non2xx + counted.errors !== amount) throw new Error(`incoming-hooks [${label}]: ${counted.ok + counted.non2xx + counted.errors} answers for ${amount} requests`);
  // Context on a shared box: the cheapest authenticated read, same connections, right after.
  const autocannon = requireCjs('autocannon') as Autocannon;
  const me = loadFigures(await autocannon({ url: `${url}/api/v4/users/me`, connections: CONNECTIONS, duration: Math.min(5, DURATION_S), headers: { authorization: `Bearer ${token}` } }));
  const figure = {
    target: label,
    requestsPerSec: counted.okPerSec,
    storedPerSec: Math.round(counted.ok / totalS),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    accepted: counted.ok,
    duplicates: stored - counted.ok,
    cpuAllMs: cpu.allMs,
    cpuSwitchyardMs: cpu.switchyardMs,
  };
  process.stdout.write(
    `incoming-hooks POST /hooks/{key} [${label}] ${CONNECTIONS} connections, ${amount} requests in ${result.duration} s: ${figure.requestsPerSec} accepted/s (2xx only), p50 ${figure.p50Ms} ms, p99 ${figure.p99Ms} ms, ` +
      `${counted.ok} accepted, ${counted.non2xx} non-2xx (${counted.statuses}), ${counted.errors} errors\n` +
      `  all ${counted.ok} accepted posts stored ${drainS.toFixed(2)} s after the blast: ${figure.storedPerSec} posts/s end to end; ${stored} posts in the channel (${figure.duplicates} duplicates)\n` +
      formatCpuReport(cpu) +
      formatTargets(label, 'hooks', 'POST /hooks/{key}', { requestsPerSec: figure.requestsPerSec, p99Ms: figure.p99Ms, cpu }) +
      `  baseline GET /api/v4/users/me [${label}]: ${me.okPerSec} 2xx/s; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${cpus().length} cores\n`,
  );
  if (figure.duplicates !== 0) throw new Error(`incoming-hooks [${label}]: ${stored} posts stored for ${counted.ok} accepted requests (${figure.duplicates} duplicates)`);
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

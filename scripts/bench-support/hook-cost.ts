/**
 * CPU per `POST /hooks/{key}` of the embedded runtime, for A/B comparisons on a shared box: one runtime process
 * per build (HOOK_COST_DISTS=a/main.js,b/main.js; default this tree's apps/embedded/dist/main.js), each warmed
 * up, then rounds of a fixed number of hooks at 32 connections, alternating the builds round by round. A round
 * counts once every accepted post is stored and the process is back to idle; the figures are the process's CPU
 * (every thread) and its main thread's, per hook, from /proc (10 ms ticks: keep rounds of 2,000+ hooks).
 * The minimum and median of each build's rounds are the figures to compare.
 *
 *   node --conditions=source --import tsx scripts/bench-support/hook-cost.ts [rounds, default 6] [hooks per round, default 3000]
 *
 * BENCH_CPU_PROF=<dir> profiles the runtimes (the warm-up included: pick the window with profile-summary's --timeline).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { processCpuMs } from './cpu';
import { loadFigures, requireClean, type AutocannonResult } from './load';
import { adminToken, must, startEmbeddedProcess, type EmbeddedProcess } from './target';

const requireCjs = createRequire(__filename);
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;

const CONNECTIONS = 32;
const BODY = JSON.stringify({ text: 'Build #42 passed :white_check_mark: <https://ci.example/42|details>', username: 'ci' });

/** utime + stime of the process's main thread in ms. */
function mainThreadCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

interface Target {
  readonly name: string;
  readonly runtime: EmbeddedProcess;
  readonly token: string;
  readonly key: string;
  readonly channelId: string;
  readonly all: number[];
  readonly main: number[];
  readonly rates: number[];
}

async function postCount(t: Pick<Target, 'runtime' | 'token' | 'channelId'>): Promise<number> {
  const res = await fetch(`${t.runtime.url}/api/v4/channels/${t.channelId}`, { headers: { authorization: `Bearer ${t.token}` } });
  return ((await res.json()) as { total_msg_count: number }).total_msg_count;
}

async function blast(url: string, key: string, amount: number): Promise<AutocannonResult> {
  const autocannon = requireCjs('autocannon') as Autocannon;
  return autocannon({ url: `${url}/hooks/${key}`, method: 'POST', connections: CONNECTIONS, amount, headers: { 'content-type': 'application/json' }, body: BODY });
}

/** Waits until `expected` posts are stored and the process used under 3 % of a CPU over 300 ms. */
async function settle(t: Pick<Target, 'runtime' | 'token' | 'channelId'>, expected: number): Promise<void> {
  const deadline = Date.now() + 120_000;
  while ((await postCount(t)) < expected) {
    if (Date.now() > deadline) throw new Error(`${t.runtime.url}: posts not stored after 120 s`);
    await delay(50);
  }
  for (let previous = processCpuMs(t.runtime.pid) ?? 0; Date.now() < deadline; ) {
    await delay(300);
    const now = processCpuMs(t.runtime.pid) ?? 0;
    if (now - previous <= 9) return;
    previous = now;
  }
}

async function prepare(name: string, dist: string): Promise<Target> {
  process.env.BENCH_RUNTIME_DIST = dist;
  const runtime = await startEmbeddedProcess();
  const token = await adminToken(runtime.url);
  const suffix = Math.random().toString(36).slice(2, 8);
  const team = await must(runtime.url, 'POST', '/api/v4/teams', { name: `hc-${suffix}`, display_name: 'Hook cost', type: 'O' }, token, 201);
  const channel = await must(runtime.url, 'POST', '/api/v4/channels', { team_id: team.id, name: `hc-${suffix}`, display_name: 'Hook cost', type: 'O' }, token, 201);
  const hook = await must(runtime.url, 'POST', '/api/v4/hooks/incoming', { channel_id: channel.id, display_name: 'Hook cost' }, token, 201);
  const target = { name, runtime, token, key: String(hook.id), channelId: String(channel.id), all: [], main: [], rates: [] };
  // Warm-up: the JIT, the caches, and a store that is not empty.
  requireClean(`${name} warm-up`, loadFigures(await blast(runtime.url, target.key, 6_000)));
  await settle(target, 6_000);
  return target;
}

async function round(t: Target, amount: number): Promise<void> {
  const before = await postCount(t);
  const all0 = processCpuMs(t.runtime.pid) ?? 0;
  const main0 = mainThreadCpuMs(t.runtime.pid);
  const result = await blast(t.runtime.url, t.key, amount);
  const figures = loadFigures(result);
  requireClean(t.name, figures);
  await settle(t, before + figures.ok);
  t.all.push(((processCpuMs(t.runtime.pid) ?? 0) - all0) / figures.ok);
  t.main.push((mainThreadCpuMs(t.runtime.pid) - main0) / figures.ok);
  t.rates.push(figures.okPerSec);
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? (s[(s.length - 1) / 2] ?? 0) : ((s[s.length / 2 - 1] ?? 0) + (s[s.length / 2] ?? 0)) / 2;
};
const f3 = (x: number): string => x.toFixed(3);

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 6);
  const amount = Number(process.argv[3] ?? 3000);
  const dists = (process.env.HOOK_COST_DISTS ?? join(__dirname, '..', '..', 'apps', 'embedded', 'dist', 'main.js')).split(',');
  const targets: Target[] = [];
  try {
    for (const [i, dist] of dists.entries()) targets.push(await prepare(`${String.fromCharCode(65 + i)} ${dist}`, dist));
    for (let r = 0; r < rounds; r++) {
      // Alternate which build goes first, so neither always follows the other's drain.
      const order = r % 2 === 0 ? targets : [...targets].reverse();
      for (const t of order) await round(t, amount);
      process.stdout.write(`round ${r + 1}: ${targets.map((t) => `${t.name.slice(0, 1)} all ${f3(t.all.at(-1) ?? 0)} main ${f3(t.main.at(-1) ?? 0)} ms (${t.rates.at(-1)}/s)`).join('; ')}\n`);
    }
    for (const t of targets) {
      process.stdout.write(`${t.name}: CPU ms per hook, process min ${f3(Math.min(...t.all))} median ${f3(median(t.all))}; main thread min ${f3(Math.min(...t.main))} median ${f3(median(t.main))}; rate median ${median(t.rates)}/s\n`);
    }
  } finally {
    for (const t of targets) await t.runtime.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});

/**
 * What the post search index costs a write, end to end (issue 26: "the index adds ≤ 20 % to the CPU per post of
 * POST /posts and POST /hooks/{key}"). Not run by default: BENCH_ONLY=search-index-cost.
 *
 * Two embedded data directories made alike (the admin, a team, a channel, an incoming hook): on one the index
 * is taken out after the migrations ran (bench-support/search-index-off.ts: the search triggers dropped, FTS5
 * tables that find no word; = the store before the index, as near as the schema allows), the other keeps it. Then, in the same sitting, alternately (without, with, without, with: BENCH_INDEX_ROUNDS,
 * default 2), the runtime is started on each and loaded with autocannon at 16 connections for
 * BENCH_DURATION_S (default 10) after a warm-up: `POST /api/v4/posts` with a 12-word message and a `#tag`, then
 * `POST /hooks/{key}` with the same text. CPU per 2xx request is the runtime process's (bench-support/cpu);
 * printed per run, then the minimum of each side and the difference in %.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '@switchyard/sqlite-kit';
import { CpuMeter } from '../bench-support/cpu';
import { loadFigures, requireClean, type AutocannonResult } from '../bench-support/load';
import { embeddedProcesses } from '../bench-support/target-processes';
import { adminToken, must, startEmbeddedProcess } from '../bench-support/target';
import { dropSearchIndex } from '../bench-support/search-index-off';
import { warmUp } from '../bench-support/warm-up';

const requireCjs = createRequire(__filename);
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;

const CONNECTIONS = 16;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const ROUNDS = Number(process.env.BENCH_INDEX_ROUNDS ?? 2);
const TEXT = 'deploy of the payments service finished green after rollback check on cluster seven #release';

interface World {
  readonly channelId: string;
  readonly hookKey: string;
}

interface Figure {
  readonly route: string;
  readonly index: boolean;
  readonly cpuMs: number;
  readonly okPerSec: number;
  readonly p99: number;
}

async function prepare(dataDir: string, withIndex: boolean): Promise<World> {
  const runtime = await startEmbeddedProcess({ dataDir });
  let world: World;
  try {
    const token = await adminToken(runtime.url);
    const suffix = Math.random().toString(36).slice(2, 10);
    const team = await must(runtime.url, 'POST', '/api/v4/teams', { name: `cost-${suffix}`, display_name: 'Cost', type: 'O' }, token, 201);
    const channel = await must(runtime.url, 'POST', '/api/v4/channels', { team_id: team.id, name: `cost-${suffix}`, display_name: 'Cost', type: 'O' }, token, 201);
    const hook = await must(runtime.url, 'POST', '/api/v4/hooks/incoming', { channel_id: channel.id, display_name: 'Cost' }, token, 201);
    world = { channelId: String(channel.id), hookKey: String(hook.id) };
  } finally {
    await runtime.stop();
  }
  if (!withIndex) {
    const store = openStore({ dir: dataDir });
    try {
      dropSearchIndex(store.db);
    } finally {
      await store.close();
    }
  }
  return world;
}

async function measureOne(dataDir: string, world: World, withIndex: boolean): Promise<Figure[]> {
  const autocannon = requireCjs('autocannon') as Autocannon;
  const runtime = await startEmbeddedProcess({ dataDir });
  const figures: Figure[] = [];
  try {
    const token = await adminToken(runtime.url);
    const routes = [
      { route: 'POST /api/v4/posts', url: `${runtime.url}/api/v4/posts`, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ channel_id: world.channelId, message: TEXT }) },
      { route: 'POST /hooks/{key}', url: `${runtime.url}/hooks/${world.hookKey}`, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: TEXT }) },
    ];
    for (const { route, ...options } of routes) {
      await warmUp(`index cost ${route}`, (duration) => autocannon({ ...options, method: 'POST', connections: CONNECTIONS, duration }));
      const meter = await CpuMeter.start(embeddedProcesses(runtime.pid));
      const result = await autocannon({ ...options, method: 'POST', connections: CONNECTIONS, duration: DURATION_S });
      const counted = loadFigures(result);
      requireClean(`index cost ${route}`, counted);
      const cpu = await meter.finish(counted.ok);
      const figure: Figure = { route, index: withIndex, cpuMs: cpu.switchyardMs, okPerSec: counted.okPerSec, p99: result.latency.p99 };
      figures.push(figure);
      process.stdout.write(
        `search index cost: ${route} ${withIndex ? 'WITH' : 'WITHOUT'} the index: ${figure.cpuMs.toFixed(3)} ms CPU per post, ${figure.okPerSec} 2xx/s, p99 ${figure.p99} ms (load ${loadavg()[0]?.toFixed(1)})\n`,
      );
    }
  } finally {
    await runtime.stop();
  }
  return figures;
}

export async function run(): Promise<unknown> {
  if (!(process.env.BENCH_ONLY ?? '').split(',').includes('search-index-cost')) {
    process.stdout.write('search-index-cost: skipped (BENCH_ONLY=search-index-cost runs it)\n');
    return undefined;
  }
  const without = mkdtempSync(join(tmpdir(), 'switchyard-bench-noindex-'));
  const withIndex = mkdtempSync(join(tmpdir(), 'switchyard-bench-index-'));
  try {
    const worlds = { without: await prepare(without, false), with: await prepare(withIndex, true) };
    const all: Figure[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      all.push(...(await measureOne(without, worlds.without, false)));
      all.push(...(await measureOne(withIndex, worlds.with, true)));
    }
    const summary: Record<string, unknown>[] = [];
    for (const route of ['POST /api/v4/posts', 'POST /hooks/{key}']) {
      const min = (index: boolean): number => Math.min(...all.filter((f) => f.route === route && f.index === index).map((f) => f.cpuMs));
      const [before, after] = [min(false), min(true)];
      const added = ((after - before) / before) * 100;
      process.stdout.write(`search index cost: ${route}: ${before.toFixed(3)} → ${after.toFixed(3)} ms CPU per post (min of ${ROUNDS} each), ${added >= 0 ? '+' : ''}${added.toFixed(1)} % (target ≤ +20 %)\n`);
      summary.push({ route, withoutMs: before, withMs: after, addedPercent: Number(added.toFixed(1)) });
    }
    return summary;
  } finally {
    rmSync(without, { recursive: true, force: true });
    rmSync(withIndex, { recursive: true, force: true });
  }
}

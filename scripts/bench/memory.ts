/**
 * Memory under posts (not run by default: BENCH_ONLY=memory), as the spec's targets say: the embedded runtime
 * ≤ 150 MB RSS idle and ≤ 250 MB after 100,000 posts; the distributed runtime ≤ 150 MB RSS per service.
 * Embedded: a fresh process on its own data directory. Distributed (BENCH_TARGETS, deploy/local's servers): a
 * runtime started by the launcher (scripts/bench-support/distributed.ts), every service's RSS. Each: idle RSS,
 * then BENCH_POSTS (default 100,000) posts through POST /hooks/{key} (32 connections, autocannon) with RSS
 * printed every 10,000, and RSS after the posts plus 10 s idle. Both start with deploy/node-runtime.env's
 * settings, as npm start and the launcher do (ADR 0040).
 */
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { serversConfigured, startDistributedProcess } from '../bench-support/distributed';
import { adminToken, call, rssMb, startEmbeddedProcess, wantsTarget } from '../bench-support/target';

const requireCjs = createRequire(__filename);
type Autocannon = (options: Record<string, unknown>) => Promise<{ requests: { total: number; average: number }; non2xx: number; errors: number }>;

const POSTS = Number(process.env.BENCH_POSTS ?? 100_000);
const STEP = 10_000;
const GOALS = { embeddedIdleMb: 150, embeddedAfterMb: 250, perServiceMb: 150 } as const;

/** RSS in MB of each named process. */
type Rss = () => Record<string, number | undefined>;
const format = (rss: Record<string, number | undefined>): string => Object.entries(rss).map(([name, mb]) => `${name} ${mb ?? '?'}`).join(', ');

/** POSTS hook posts, printing every process's RSS every STEP; returns the largest RSS seen per process. */
async function postThroughHook(label: string, url: string, rss: Rss): Promise<Record<string, number>> {
  const autocannon = requireCjs('autocannon') as Autocannon;
  const max: Record<string, number> = {};
  const note = (now: Record<string, number | undefined>): Record<string, number | undefined> => {
    for (const [name, mb] of Object.entries(now)) if (mb !== undefined) max[name] = Math.max(max[name] ?? 0, mb);
    return now;
  };
  const token = await adminToken(url);
  const suffix = Math.random().toString(36).slice(2, 8);
  const team = await call(url, 'POST', '/api/v4/teams', { name: `bench-memory-${suffix}`, display_name: 'Memory', type: 'O' }, token);
  const teamId = (team.json as { id: string }).id;
  const channel = await call(url, 'POST', '/api/v4/channels', { team_id: teamId, name: 'memory', display_name: 'Memory', type: 'O' }, token);
  const hook = await call(url, 'POST', '/api/v4/hooks/incoming', { channel_id: (channel.json as { id: string }).id, display_name: 'Memory' }, token);
  const key = (hook.json as { id: string }).id;
  let posted = 0;
  const started = Date.now();
  while (posted < POSTS) {
    const amount = Math.min(STEP, POSTS - posted);
    const result = await autocannon({
      url: `${url}/hooks/${key}`,
      method: 'POST',
      connections: 32,
      amount,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'Build #42 passed :white_check_mark: <https://ci.example/42|details>', username: 'ci' }),
    });
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`posting failed: ${result.non2xx} non-2xx, ${result.errors} errors`);
    posted += result.requests.total;
    process.stdout.write(`memory [${label}] ${posted} posts (${Math.round(posted / ((Date.now() - started) / 1000))} posts/s so far): RSS ${format(note(rss()))} MB\n`);
  }
  await new Promise((resolve) => setTimeout(resolve, 10_000));
  process.stdout.write(`memory [${label}] after ${posted} posts and 10 s idle: RSS ${format(note(rss()))} MB\n`);
  return max;
}

async function embedded(): Promise<void> {
  const runtime = await startEmbeddedProcess();
  try {
    const idle = rssMb(runtime.pid);
    process.stdout.write(`memory [embedded] idle RSS: ${idle} MB\n`);
    await postThroughHook('embedded', runtime.url, () => ({ embedded: rssMb(runtime.pid) }));
    const after = rssMb(runtime.pid) ?? Number.NaN;
    const pass = (ok: boolean): string => (ok ? 'pass' : 'FAIL');
    process.stdout.write(`  targets [embedded] idle ${idle} ≤ ${GOALS.embeddedIdleMb} MB ${pass((idle ?? Infinity) <= GOALS.embeddedIdleMb)}; after the posts ${after} ≤ ${GOALS.embeddedAfterMb} MB ${pass(after <= GOALS.embeddedAfterMb)}; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
  } finally {
    await runtime.stop();
  }
}

async function distributed(): Promise<void> {
  if (!serversConfigured()) {
    process.stdout.write('memory [distributed]: skipped (no deploy/local servers)\n');
    return;
  }
  const runtime = await startDistributedProcess();
  try {
    const services = Object.entries(runtime.pids).filter(([name]) => name !== 'launcher');
    const rss: Rss = () => Object.fromEntries(services.map(([name, pid]) => [name, rssMb(pid)]));
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    process.stdout.write(`memory [distributed] idle RSS (10 s after ready): ${format(rss())} MB\n`);
    const max = await postThroughHook('distributed', runtime.url, rss);
    const over = Object.entries(max).filter(([, mb]) => mb > GOALS.perServiceMb);
    process.stdout.write(`  targets [distributed] largest RSS per service ≤ ${GOALS.perServiceMb} MB ${over.length === 0 ? 'pass' : `FAIL (${over.map(([n, mb]) => `${n} ${mb}`).join(', ')})`}; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
  } finally {
    await runtime.stop();
  }
}

export async function run(): Promise<void> {
  if (!(process.env.BENCH_ONLY ?? '').split(',').includes('memory')) {
    process.stdout.write('memory: skipped (BENCH_ONLY=memory runs it; it takes minutes)\n');
    return;
  }
  if (wantsTarget('embedded')) await embedded();
  if (wantsTarget('distributed')) await distributed();
}

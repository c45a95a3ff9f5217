/**
 * Memory of the embedded runtime under posts (not run by default: BENCH_ONLY=memory): a fresh process on
 * its own data directory, idle RSS, then BENCH_POSTS (default 100,000) posts through POST /hooks/{key}
 * (32 connections, autocannon) with RSS printed every 10,000, and RSS after the posts plus 10 s idle.
 * Targets: idle ≤ 150 MB, ≤ 250 MB after 100,000 posts (nothing is kept per post in memory).
 */
import { createRequire } from 'node:module';
import { adminToken, call, rssMb, startEmbeddedProcess } from '../bench-support/target';

const requireCjs = createRequire(__filename);
type Autocannon = (options: Record<string, unknown>) => Promise<{ requests: { total: number; average: number }; non2xx: number; errors: number }>;

const POSTS = Number(process.env.BENCH_POSTS ?? 100_000);
const STEP = 10_000;

export async function run(): Promise<void> {
  if (!(process.env.BENCH_ONLY ?? '').split(',').includes('memory')) {
    process.stdout.write('memory: skipped (BENCH_ONLY=memory runs it; it takes minutes)\n');
    return;
  }
  const autocannon = requireCjs('autocannon') as Autocannon;
  const embedded = await startEmbeddedProcess();
  try {
    const url = embedded.url;
    process.stdout.write(`memory [embedded] idle RSS: ${rssMb(embedded.pid)} MB\n`);
    const token = await adminToken(url);
    const team = await call(url, 'POST', '/api/v4/teams', { name: 'bench-memory', display_name: 'Memory', type: 'O' }, token);
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
      process.stdout.write(`memory [embedded] ${posted} posts (${Math.round(posted / ((Date.now() - started) / 1000))} posts/s so far): RSS ${rssMb(embedded.pid)} MB\n`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    process.stdout.write(`memory [embedded] after ${posted} posts and 10 s idle: RSS ${rssMb(embedded.pid)} MB\n`);
  } finally {
    await embedded.stop();
  }
}

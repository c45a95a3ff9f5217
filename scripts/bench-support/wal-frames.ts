/**
 * What one post writes to the embedded store's WAL (issue 33), counted rather than timed, so it holds on a
 * loaded box: posts one at a time into a channel with a one-URL outgoing hook (`posted`), then into one
 * without; the runtime is traced with strace (pwrite64, fsync, fdatasync) during each phase. Prints per post
 * the WAL frames (by the table or index that owns each frame's page), the checkpoints (per 1,000 posts, and
 * their time on the event loop from the first sync to the database's fsync, inflated by strace) and the
 * group commit's WAL syncs. Needs strace (and ptrace permission on the runtime).
 *
 *   [BENCH_RUNTIME_DIST=<other build>/apps/embedded/dist/main.js] WAL_FRAMES_POSTS=300 \
 *     node --conditions=source --import tsx scripts/bench-support/wal-frames.ts
 */
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminToken, must, startEmbeddedProcess } from './target';
import { pageOwners, readWalTrace } from './wal-trace';

const POSTS = Number(process.env.WAL_FRAMES_POSTS ?? 300);
const TOP = 12;

/** The node process of the runtime (started through `sh`, which may or may not have exec'd it). */
function runtimePid(pid: number): string {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).trim().split('\n')[0] ?? String(pid);
  } catch {
    return String(pid);
  }
}

async function traced(pid: string, file: string, run: () => Promise<void>): Promise<void> {
  const tracer = spawn('strace', ['-f', '-tt', '-T', '-y', '-xx', '-s', '8', '-e', 'trace=pwrite64,fsync,fdatasync', '-o', file, '-p', pid], { stdio: 'ignore' });
  try {
    await new Promise((resolve) => setTimeout(resolve, 800));
    await run();
    await new Promise((resolve) => setTimeout(resolve, 500));
  } finally {
    tracer.kill('SIGINT');
    await new Promise((resolve) => tracer.once('exit', resolve));
  }
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-wal-frames-'));
  const target = await startEmbeddedProcess({ dataDir });
  let received = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      res.end('');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const traces: [string, string][] = [];
  try {
    const url = target.url;
    const token = await adminToken(url);
    await must(url, 'PUT', '/api/v4/config/patch', { ServiceSettings: { AllowedUntrustedInternalConnections: '127.0.0.1' } }, token, 200);
    const suffix = Math.random().toString(36).slice(2, 8);
    const team = await must(url, 'POST', '/api/v4/teams', { name: `wal${suffix}`, display_name: 'WAL', type: 'O' }, token, 201);
    const hooked = await must(url, 'POST', '/api/v4/channels', { team_id: team.id, name: `hooked${suffix}`, display_name: 'Hooked', type: 'O' }, token, 201);
    const quiet = await must(url, 'POST', '/api/v4/channels', { team_id: team.id, name: `quiet${suffix}`, display_name: 'Quiet', type: 'O' }, token, 201);
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/wal`;
    await must(url, 'POST', '/api/v4/hooks/outgoing', { team_id: team.id, channel_id: hooked.id, callback_urls: [hookUrl], content_type: 'application/json' }, token, 201);
    for (let i = 0; i < 30; i += 1) await must(url, 'POST', '/api/v4/posts', { channel_id: quiet.id, message: `warm-up ${i}` }, token, 201);
    const pid = runtimePid(target.pid);
    for (const [name, channel] of [['with a hook', hooked], ['without hooks', quiet]] as const) {
      const file = join(dataDir, `strace-${traces.length}.log`);
      traces.push([name, file]);
      await traced(pid, file, async () => {
        const before = received;
        for (let i = 0; i < POSTS; i += 1) {
          await must(url, 'POST', '/api/v4/posts', { channel_id: channel.id, message: `wal ${i}` }, token, 201);
          // One at a time: the next post once this one's callback arrived (bounded wait).
          for (let k = 0; channel === hooked && k < 2000 && received < before + i + 1; k += 1) await new Promise((resolve) => setTimeout(resolve, 1));
        }
      });
    }
  } finally {
    receiver.close();
    await target.stop();
  }
  // The runtime has stopped (checkpointed on close): every page's owner can be read from the file.
  const owners = pageOwners(join(dataDir, 'switchyard.db'));
  const per = (n: number): string => (n / POSTS).toFixed(2);
  for (const [name, file] of traces) {
    const trace = readWalTrace(file, owners);
    const top = [...trace.framesByTree].sort((a, b) => b[1] - a[1]).slice(0, TOP);
    process.stdout.write(`${name}, ${POSTS} posts one at a time: ${per(trace.frames)} WAL frames per post, ${(trace.checkpointMs.length * 1000 / POSTS).toFixed(1)} checkpoints per 1,000 posts ` +
      `(ms each: ${trace.checkpointMs.map((ms) => ms.toFixed(1)).join(' ') || '-'}), ${per(trace.walSyncs)} WAL syncs per post\n`);
    for (const [tree, frames] of top) process.stdout.write(`    ${tree.padEnd(36)} ${per(frames)}\n`);
  }
  process.stdout.write(`  load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
  rmSync(dataDir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});

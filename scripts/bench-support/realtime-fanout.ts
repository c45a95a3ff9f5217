/**
 * Fan-out cost of realtime and the gateway's upgrade proxy alone, without Kafka, MongoDB or the post
 * pipeline: three processes on loopback,
 * - realtime: the real service app (createRealtimeApp) on an in-memory bus and directory (one channel of
 *   MEMBERS users), publishing `post.created` into its own bus at RATE per second for SECONDS when told;
 * - gateway: the distributed runtime's upgrade proxy (http-kit's proxyUpgrade) in front of it;
 * - this process: MEMBERS authenticated sockets through the gateway (identity signed as the gateway would),
 *   counting the `posted` frames and their latency from publication.
 * Prints each server process's CPU (user + system, /proc) per delivered frame. A measuring tool for
 * profiles and A/B runs (CPU_PROF=1 writes .cpuprofile files of realtime and the gateway to /tmp; CPU_PROF=window
 * one of realtime over the measured traffic alone, /tmp/rt-prof/realtime-with|without-<pid>.cpuprofile).
 * BENCH_WS_CURSORS=0 runs realtime without event cursors (its bus gives no partition ends, as app.ts turns
 * them off): the same live traffic without what resuming costs (event-cursors runs both at the same time through `fanOutCpu`).
 *
 *   node --conditions=source --import tsx scripts/bench-support/realtime-fanout.ts
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { createServer, type IncomingMessage } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import WebSocket from 'ws';
import { envelope, Topics } from '@switchyard/contracts';
import { MemoryEventBus } from '@switchyard/event-bus';
import { InProcessTransport, proxyUpgrade, signIdentity } from '@switchyard/http-kit';
import { createSilentLogger } from '@switchyard/logger';
import { MemoryDirectory } from '../../services/realtime/src/adapters/memory/directory.memory';
import { createRealtimeApp } from '../../services/realtime/src/app';
import { loadRealtimeConfig } from '../../services/realtime/src/config';
import type { RealtimeMetrics } from '../../services/realtime/src/domain/ports';
import { processCpuMs } from './cpu';

const MEMBERS = Number(process.env.BENCH_WS_MEMBERS ?? 500);
const RATE = Number(process.env.BENCH_WS_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_WS_SECONDS ?? 6);
/** Posts published at once (BENCH_WS_BURST): 1 = one at a time; more = bursts, so each socket's flush carries several frames. */
const BURST = Math.max(1, Number(process.env.BENCH_WS_BURST ?? 1));
const SECRET = 'fanout-bench-secret-0123456789abcdef';
const CHANNEL = 'c'.repeat(26);
const userId = (i: number): string => `u${String(i).padStart(25, '0')}`;

const noMetrics: RealtimeMetrics = { sent: () => undefined, dropped: () => undefined, disconnected: () => undefined, fanOut: () => undefined };

/** A role's own CPU (user and system, µs), asked over IPC. */
function ownCpuUs(child: ChildProcess): Promise<{ user: number; system: number }> {
  return new Promise((resolve) => {
    const on = (m: { cpuUs?: { user: number; system: number } }): void => {
      if (!m.cpuUs) return;
      child.off('message', on);
      resolve(m.cpuUs);
    };
    child.on('message', on);
    child.send({ cpu: true });
  });
}

function ready(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    child.once('message', (m: { port?: number }) => (m.port ? resolve(m.port) : reject(new Error('no port'))));
    child.once('exit', (code) => reject(new Error(`child exited ${code}`)));
  });
}

async function realtimeRole(): Promise<void> {
  const directory = new MemoryDirectory();
  for (let i = 0; i < MEMBERS; i += 1) directory.addChannelMember(CHANNEL, userId(i));
  const bus = new MemoryEventBus();
  // Without partition ends realtime keeps no stream and its frames carry no cursor (app.ts).
  if (process.env.BENCH_WS_CURSORS === '0') Object.defineProperty(bus, 'endOffsets', { value: undefined });
  const config = loadRealtimeConfig({ INTERNAL_SECRET: SECRET, PORT: '0', WS_WRITE_COALESCE_MS: process.env.WS_WRITE_COALESCE_MS });
  const app = createRealtimeApp(config, { logger: createSilentLogger(), bus, transport: new InProcessTransport(), directory, metrics: noMetrics });
  await app.start();
  const channel = { id: CHANNEL, team_id: 't'.repeat(26), team_name: 'team', type: 'O', name: 'fan', display_name: 'Fan', creator_id: userId(0), delete_at: 0 };
  const postValue = (n: number): unknown => {
    const now = Date.now();
    const post = { id: `p${String(n).padStart(25, '0')}`, create_at: now, update_at: now, edit_at: 0, delete_at: 0, is_pinned: false, user_id: userId(0), channel_id: CHANNEL, root_id: '', original_id: '', message: `fanout-${n}-x`, type: '', props: {}, hashtags: '', file_ids: [], pending_post_id: '', reply_count: 0, last_reply_at: 0, participants: null };
    return envelope('post.created', { post, channel, team: { id: channel.team_id, name: 'team' }, author: { id: userId(0), username: 'u0', is_bot: false }, source: 'api', from_webhook: false, is_system: false });
  };
  // BENCH_WS_PREFILL: posts handled before anyone connects (a replica that has been running: its stream holds them).
  const prefill = Number(process.env.BENCH_WS_PREFILL ?? 0);
  for (let n = 0; n < prefill; n += 500) {
    await bus.publish(Topics.postsEvents, Array.from({ length: Math.min(500, prefill - n) }, (_, i) => ({ key: CHANNEL, value: postValue(-1 - n - i) })));
    await delay(20);
  }
  if (prefill > 0) await delay(1_000);
  const server = createServer(app.handler);
  server.on('upgrade', app.upgrade);
  server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as { port: number }).port }));
  // CPU_PROF=window: a profile of realtime over the measured traffic alone (from `go` to the CPU read after it).
  const windowProfile = process.env.CPU_PROF === 'window' ? new Session() : undefined;
  if (windowProfile) mkdirSync('/tmp/rt-prof', { recursive: true });
  windowProfile?.connect();
  let rounds = 0;
  process.on('message', (m: { go?: boolean; cpu?: boolean }) => {
    // Its own CPU (µs resolution; /proc counts 10 ms ticks).
    if (m.cpu) {
      process.send?.({ cpuUs: process.cpuUsage() });
      windowProfile?.post('Profiler.stop', (error, result) => {
        if (!error) writeFileSync(`/tmp/rt-prof/realtime-${process.env.BENCH_WS_CURSORS === '0' ? 'without' : 'with'}-${process.pid}.cpuprofile`, JSON.stringify(result.profile));
      });
    }
    if (!m.go) return;
    // CPU_PROF_INTERVAL_US: the sampling interval (default 1,000 µs; 6 s of traffic is then only a few hundred samples).
    windowProfile?.post('Profiler.enable', () => windowProfile.post('Profiler.setSamplingInterval', { interval: Number(process.env.CPU_PROF_INTERVAL_US ?? 1000) }, () => windowProfile.post('Profiler.start')));
    const total = RATE * SECONDS;
    // Each round's posts have ids of their own (a warm-up round comes before the measured one under callgrind).
    const first = rounds * total;
    rounds += 1;
    const started = performance.now();
    void (async () => {
      // BURST posts published together each time (one at a time by default).
      for (let n = 0; n < total; n += BURST) {
        const wait = started + (n * 1000) / RATE - performance.now();
        if (wait > 1) await delay(wait);
        void bus.publish(Topics.postsEvents, Array.from({ length: Math.min(BURST, total - n) }, (_, i) => ({ key: CHANNEL, value: postValue(first + n + i) })));
      }
    })();
  });
}

function gatewayRole(target: string): void {
  const server = createServer((_req, res) => res.writeHead(404).end());
  server.on('upgrade', (req: IncomingMessage, socket, head) => {
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && k !== 'connection' && k !== 'upgrade') headers[k] = v;
    proxyUpgrade(target, req, socket, head, headers);
  });
  server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as { port: number }).port }));
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

export interface FanOutOptions {
  readonly members: number;
  readonly rate: number;
  readonly seconds: number;
  /** false: realtime without event cursors. */
  readonly cursors: boolean;
  /** Posts realtime handles before the sockets connect (its stream then holds them, as a replica that has run a while). */
  readonly prefill?: number;
  /** Posts published at once (default 1). */
  readonly burst?: number;
}

/** CPU per delivered frame of each process (µs), frames delivered and expected, publish -> frame latency (ms). */
export interface FanOutFigures {
  readonly frames: number;
  /** Of them, frames that carry a cursor. */
  readonly cursorFrames: number;
  readonly expected: number;
  readonly realtimeUs: number;
  /** Of realtimeUs, the kernel's (system time: the socket writes). */
  readonly realtimeSystemUs: number;
  readonly gatewayUs: number;
  readonly clientUs: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

/** One fan-out run: realtime and the upgrade proxy in processes of their own, the sockets in this one. */
export async function fanOutCpu(options: FanOutOptions): Promise<FanOutFigures> {
  const { members, rate, seconds } = options;
  const prof = process.env.CPU_PROF === '1' ? ['--cpu-prof', '--cpu-prof-dir=/tmp/rt-prof'] : [];
  const execArgv = ['--conditions=source', '--import', 'tsx', ...prof];
  const env = { ...process.env, BENCH_WS_MEMBERS: String(members), BENCH_WS_RATE: String(rate), BENCH_WS_SECONDS: String(seconds), BENCH_WS_CURSORS: options.cursors ? '1' : '0', BENCH_WS_PREFILL: String(options.prefill ?? 0), BENCH_WS_BURST: String(options.burst ?? 1) };
  // BENCH_WS_CALLGRIND=<dir>: realtime runs under valgrind's callgrind, counting only the measured window (its
  // instructions per frame: a count, not a time, so the box's other work does not move it; user space only).
  const callgrind = process.env.BENCH_WS_CALLGRIND;
  const realtime = callgrind
    ? fork(__filename, ['realtime'], {
        execPath: 'valgrind',
        execArgv: ['--tool=callgrind', '--instr-atstart=no', '--smc-check=all-non-file', `--callgrind-out-file=${callgrind}/callgrind.${options.cursors ? 'with' : 'without'}.%p`, process.execPath, '--single-threaded', ...execArgv],
        env,
      })
    : fork(__filename, ['realtime'], { execArgv, env });
  const realtimePort = await ready(realtime);
  const gateway = fork(__filename, ['gateway', `http://127.0.0.1:${realtimePort}`], { execArgv, env });
  const gatewayPort = await ready(gateway);
  const path = '/api/v4/websocket';
  let frames = 0;
  let cursorFrames = 0;
  const latencies: number[] = [];
  const sockets = await Promise.all(
    Array.from({ length: members }, (_, i) => {
      const headers = signIdentity({ userId: userId(i), sessionId: `s${i}`, roles: 'system_user', isBot: true, sessionType: 'UserAccessToken' }, SECRET, { method: 'GET', target: path });
      return new Promise<WebSocket>((resolve, reject) => {
        const ws = new WebSocket(`ws://127.0.0.1:${gatewayPort}${path}`, { headers, perMessageDeflate: false, skipUTF8Validation: true });
        ws.on('message', (data: Buffer) => {
          if (data.includes('"event": "hello"')) resolve(ws);
          else if (data.includes('"event": "posted"')) {
            frames += 1;
            if (data.includes('"cursor": "')) cursorFrames += 1;
            const at = data.indexOf('create_at\\":');
            if (at > 0) latencies.push(Date.now() - Number(data.subarray(at + 12, at + 25).toString('latin1')));
          }
        });
        ws.once('error', reject);
      });
    }),
  );
  await delay(1_000);
  if (callgrind) {
    // The same traffic once before the count: the code it runs is compiled (optimised) before, not during, the window.
    realtime.send({ go: true });
    const until = Date.now() + seconds * 1000 + 900_000;
    while (frames < rate * seconds * members && Date.now() < until) await delay(100);
    await delay(2_000);
    frames = 0;
    cursorFrames = 0;
    latencies.length = 0;
  }
  const realtimeBefore = await ownCpuUs(realtime);
  const before = { realtime: processCpuMs(realtime.pid ?? 0) ?? 0, gateway: processCpuMs(gateway.pid ?? 0) ?? 0, client: processCpuMs(process.pid) ?? 0 };
  if (callgrind) execFileSync('callgrind_control', ['-i', 'on', String(realtime.pid)]);
  realtime.send({ go: true });
  const expected = rate * seconds * members;
  const deadline = Date.now() + seconds * 1000 + (callgrind ? 900_000 : 20_000);
  while (frames < expected && Date.now() < deadline) await delay(100);
  await delay(300);
  const after = { realtime: processCpuMs(realtime.pid ?? 0) ?? 0, gateway: processCpuMs(gateway.pid ?? 0) ?? 0, client: processCpuMs(process.pid) ?? 0 };
  const realtimeAfter = await ownCpuUs(realtime);
  if (callgrind) execFileSync('callgrind_control', ['-i', 'off', String(realtime.pid)]);
  const realtimeUs = (realtimeAfter.user + realtimeAfter.system - realtimeBefore.user - realtimeBefore.system) / Math.max(1, frames);
  const realtimeSystemUs = (realtimeAfter.system - realtimeBefore.system) / Math.max(1, frames);
  latencies.sort((a, b) => a - b);
  const per = (k: keyof typeof before): number => ((after[k] - before[k]) * 1000) / Math.max(1, frames);
  for (const ws of sockets) ws.terminate();
  // The window's profile is written after the CPU read.
  if (process.env.CPU_PROF === 'window') await delay(1_000);
  realtime.kill('SIGINT');
  gateway.kill('SIGINT');
  await Promise.all([realtime, gateway].map((child) => (child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : undefined)));
  return { frames, cursorFrames, expected, realtimeUs, realtimeSystemUs, gatewayUs: per('gateway'), clientUs: per('client'), p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99) };
}

async function main(): Promise<void> {
  const f = await fanOutCpu({ members: MEMBERS, rate: RATE, seconds: SECONDS, cursors: process.env.BENCH_WS_CURSORS !== '0', prefill: Number(process.env.BENCH_WS_PREFILL ?? 0), burst: BURST });
  process.stdout.write(
    `fan-out micro: ${f.frames}/${f.expected} frames (${f.cursorFrames} with a cursor), ${MEMBERS} sockets, ${RATE}/s for ${SECONDS} s; publish -> frame p50 ${f.p50Ms} ms p99 ${f.p99Ms} ms; ` +
      `CPU per frame: realtime ${f.realtimeUs.toFixed(2)} µs, gateway ${f.gatewayUs.toFixed(2)} µs, client ${f.clientUs.toFixed(2)} µs\n`,
  );
}

const role = process.argv[2];
if (role === 'realtime') {
  process.on('SIGINT', () => process.exit(0));
  void realtimeRole();
} else if (role === 'gateway') {
  process.on('SIGINT', () => process.exit(0));
  gatewayRole(process.argv[3] ?? '');
} else if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  });
}

/**
 * Fan-out cost of realtime and the gateway's upgrade proxy alone, without Kafka, MongoDB or the post
 * pipeline: three processes on loopback,
 * - realtime: the real service app (createRealtimeApp) on an in-memory bus and directory (one channel of
 *   MEMBERS users), publishing `post.created` into its own bus at RATE per second for SECONDS when told;
 * - gateway: the distributed runtime's upgrade proxy (http-kit's proxyUpgrade) in front of it;
 * - this process: MEMBERS authenticated sockets through the gateway (identity signed as the gateway would),
 *   counting the `posted` frames and their latency from publication.
 * Prints each server process's CPU (user + system, /proc) per delivered frame. A measuring tool for
 * profiles and A/B runs (CPU_PROF=1 writes .cpuprofile files of realtime and the gateway to /tmp).
 *
 *   node --conditions=source --import tsx scripts/bench-support/realtime-fanout.ts
 */
import { fork, type ChildProcess } from 'node:child_process';
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
const SECRET = 'fanout-bench-secret-0123456789abcdef';
const CHANNEL = 'c'.repeat(26);
const userId = (i: number): string => `u${String(i).padStart(25, '0')}`;

const noMetrics: RealtimeMetrics = { sent: () => undefined, dropped: () => undefined, disconnected: () => undefined, fanOut: () => undefined };

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
  const config = loadRealtimeConfig({ INTERNAL_SECRET: SECRET, PORT: '0', WS_WRITE_COALESCE_MS: process.env.WS_WRITE_COALESCE_MS });
  const app = createRealtimeApp(config, { logger: createSilentLogger(), bus, transport: new InProcessTransport(), directory, metrics: noMetrics });
  await app.start();
  const server = createServer(app.handler);
  server.on('upgrade', app.upgrade);
  server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as { port: number }).port }));
  process.on('message', (m: { go?: boolean }) => {
    if (!m.go) return;
    const channel = { id: CHANNEL, team_id: 't'.repeat(26), team_name: 'team', type: 'O', name: 'fan', display_name: 'Fan', creator_id: userId(0), delete_at: 0 };
    const total = RATE * SECONDS;
    const started = performance.now();
    void (async () => {
      for (let n = 0; n < total; n += 1) {
        const wait = started + (n * 1000) / RATE - performance.now();
        if (wait > 1) await delay(wait);
        const now = Date.now();
        const post = { id: `p${String(n).padStart(25, '0')}`, create_at: now, update_at: now, edit_at: 0, delete_at: 0, is_pinned: false, user_id: userId(0), channel_id: CHANNEL, root_id: '', original_id: '', message: `fanout-${n}-x`, type: '', props: {}, hashtags: '', file_ids: [], pending_post_id: '', reply_count: 0, last_reply_at: 0, participants: null };
        const value = envelope('post.created', { post, channel, team: { id: channel.team_id, name: 'team' }, author: { id: userId(0), username: 'u0', is_bot: false }, source: 'api', from_webhook: false, is_system: false });
        void bus.publish(Topics.postsEvents, [{ key: CHANNEL, value }]);
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

async function main(): Promise<void> {
  const prof = process.env.CPU_PROF === '1' ? ['--cpu-prof', '--cpu-prof-dir=/tmp/rt-prof'] : [];
  const execArgv = ['--conditions=source', '--import', 'tsx', ...prof];
  const realtime = fork(__filename, ['realtime'], { execArgv });
  const realtimePort = await ready(realtime);
  const gateway = fork(__filename, ['gateway', `http://127.0.0.1:${realtimePort}`], { execArgv });
  const gatewayPort = await ready(gateway);
  const path = '/api/v4/websocket';
  let frames = 0;
  const latencies: number[] = [];
  const sockets = await Promise.all(
    Array.from({ length: MEMBERS }, (_, i) => {
      const headers = signIdentity({ userId: userId(i), sessionId: `s${i}`, roles: 'system_user', isBot: true, sessionType: 'UserAccessToken' }, SECRET, { method: 'GET', target: path });
      return new Promise<WebSocket>((resolve, reject) => {
        const ws = new WebSocket(`ws://127.0.0.1:${gatewayPort}${path}`, { headers, perMessageDeflate: false, skipUTF8Validation: true });
        ws.on('message', (data: Buffer) => {
          if (data.includes('"event": "hello"')) resolve(ws);
          else if (data.includes('"event": "posted"')) {
            frames += 1;
            const at = data.indexOf('create_at\\":');
            if (at > 0) latencies.push(Date.now() - Number(data.subarray(at + 12, at + 25).toString('latin1')));
          }
        });
        ws.once('error', reject);
      });
    }),
  );
  await delay(1_000);
  const before = { realtime: processCpuMs(realtime.pid ?? 0) ?? 0, gateway: processCpuMs(gateway.pid ?? 0) ?? 0, client: processCpuMs(process.pid) ?? 0 };
  realtime.send({ go: true });
  const expected = RATE * SECONDS * MEMBERS;
  const deadline = Date.now() + SECONDS * 1000 + 20_000;
  while (frames < expected && Date.now() < deadline) await delay(100);
  await delay(300);
  const after = { realtime: processCpuMs(realtime.pid ?? 0) ?? 0, gateway: processCpuMs(gateway.pid ?? 0) ?? 0, client: processCpuMs(process.pid) ?? 0 };
  latencies.sort((a, b) => a - b);
  const per = (k: keyof typeof before): string => `${(((after[k] - before[k]) * 1000) / Math.max(1, frames)).toFixed(2)} µs`;
  process.stdout.write(
    `fan-out micro: ${frames}/${expected} frames, ${MEMBERS} sockets, ${RATE}/s for ${SECONDS} s; publish -> frame p50 ${percentile(latencies, 50)} ms p99 ${percentile(latencies, 99)} ms; ` +
      `CPU per frame: realtime ${per('realtime')}, gateway ${per('gateway')}, client ${per('client')}\n`,
  );
  for (const ws of sockets) ws.terminate();
  realtime.kill('SIGINT');
  gateway.kill('SIGINT');
}

const role = process.argv[2];
if (role === 'realtime') {
  process.on('SIGINT', () => process.exit(0));
  void realtimeRole();
} else if (role === 'gateway') {
  process.on('SIGINT', () => process.exit(0));
  gatewayRole(process.argv[3] ?? '');
} else {
  main().catch((error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  });
}

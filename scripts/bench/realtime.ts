/**
 * The WebSocket API (`GET /api/v4/websocket`):
 * - idle: BENCH_WS_IDLE (default 5,000) authenticated sockets held open on the embedded runtime (own
 *   process); its RSS before and after, and per socket;
 * - fan-out: BENCH_WS_MEMBERS (default 500) bots, each with a socket, in one channel; posts at
 *   BENCH_WS_RATE per second (default 200) for BENCH_WS_SECONDS (default 10); latency from the moment the
 *   `POST /api/v4/posts` answer is read to each socket's `posted` event (an event that arrives before the
 *   answer counts as 0), p50/p99 over every (post, socket) pair. Embedded, and SWITCHYARD_URL when set.
 * Targets (mattermost spec README): fan-out p99 <= 50 ms embedded, <= 100 ms distributed.
 */
import { loadavg } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { Agent, request } from 'undici';
import WebSocket from 'ws';
import { processCpuMs } from '../bench-support/cpu';
import { adminToken, externalTarget, must, rssMb, startEmbeddedProcess, wantsTarget } from '../bench-support/target';

const IDLE = Number(process.env.BENCH_WS_IDLE ?? 5_000);
const MEMBERS = Number(process.env.BENCH_WS_MEMBERS ?? 500);
const RATE = Number(process.env.BENCH_WS_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_WS_SECONDS ?? 10);

function wsUrl(url: string): string {
  return `${url.replace(/^http/, 'ws')}/api/v4/websocket`;
}

/** Opens a socket with the token in the upgrade and resolves at its hello. */
function connect(url: string, token: string, onMessage?: (text: string) => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl(url), { headers: { authorization: `Bearer ${token}` }, perMessageDeflate: false });
    let greeted = false;
    ws.on('message', (data: WebSocket.RawData) => {
      const text = String(data);
      if (!greeted && text.includes('"event": "hello"')) {
        greeted = true;
        resolve(ws);
        return;
      }
      onMessage?.(text);
    });
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
  });
}

async function inBatches<T>(count: number, width: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < count; i += width) out.push(...(await Promise.all(Array.from({ length: Math.min(width, count - i) }, (_, j) => make(i + j)))));
  return out;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function idle(url: string, pid: number): Promise<void> {
  const token = await adminToken(url);
  await delay(1_000);
  const before = rssMb(pid);
  const started = Date.now();
  const sockets = await inBatches(IDLE, 100, () => connect(url, token));
  const openedMs = Date.now() - started;
  await delay(2_000);
  const after = rssMb(pid);
  process.stdout.write(
    `realtime idle [embedded]: ${sockets.length} authenticated sockets opened in ${(openedMs / 1000).toFixed(1)} s; RSS of the whole process ${before ?? '?'} MB before, ${after ?? '?'} MB with them` +
      (before !== undefined && after !== undefined ? ` (${(((after - before) * 1024) / sockets.length).toFixed(1)} KB per socket)\n` : '\n'),
  );
  await Promise.all(sockets.map((ws) => new Promise<void>((resolve) => (ws.once('close', () => resolve()), ws.close()))));
}

async function fanout(label: string, url: string, serverPid?: number): Promise<void> {
  const admin = await adminToken(url);
  await must(url, 'PUT', '/api/v4/config/patch', { ServiceSettings: { EnableBotAccountCreation: true }, TeamSettings: { MaxUsersPerTeam: MEMBERS + 10 } }, admin, 200);
  const suffix = Math.random().toString(36).slice(2, 8);
  const team = await must(url, 'POST', '/api/v4/teams', { name: `benchws-${suffix}`, display_name: `Bench WS ${suffix}`, type: 'O' }, admin, 201);
  const channel = await must(url, 'POST', '/api/v4/channels', { team_id: team.id, name: `fanout-${suffix}`, display_name: 'Fan-out', type: 'O' }, admin, 201);
  const setupStarted = Date.now();
  const tokens = await inBatches(MEMBERS, 20, async (i) => {
    const bot = await must(url, 'POST', '/api/v4/bots', { username: `ws${suffix}${i}`, display_name: `WS ${i}` }, admin, 201);
    const userId = String(bot.user_id);
    await must(url, 'POST', `/api/v4/teams/${String(team.id)}/members`, { team_id: team.id, user_id: userId }, admin, 201);
    await must(url, 'POST', `/api/v4/channels/${String(channel.id)}/members`, { user_id: userId }, admin, 201);
    const token = await must(url, 'POST', `/api/v4/users/${userId}/tokens`, { description: 'bench' }, admin, 200);
    return String(token.token);
  });
  const total = RATE * SECONDS;
  const answeredAt = new Float64Array(total).fill(Number.NaN);
  const received: number[][] = [];
  const marker = /fanout-(\d+)-x/;
  const sockets = await inBatches(tokens.length, 50, (i) => {
    received[i] = [];
    return connect(url, tokens[i] ?? '', (text) => {
      if (!text.startsWith('{"event": "posted"')) return;
      const n = marker.exec(text)?.[1];
      if (n !== undefined) received[i]?.push(Number(n), performance.now());
    });
  });
  process.stdout.write(`realtime fan-out [${label}]: ${sockets.length} bots in one channel, connected (setup ${((Date.now() - setupStarted) / 1000).toFixed(1)} s); ${RATE} posts/s for ${SECONDS} s\n`);

  const dispatcher = new Agent({ connections: 32, pipelining: 1 });
  const body = (n: number): string => JSON.stringify({ channel_id: channel.id, message: `fanout-${n}-x` });
  const cpuBefore = serverPid === undefined ? undefined : processCpuMs(serverPid);
  const started = performance.now();
  let failures = 0;
  const inflight: Promise<void>[] = [];
  for (let n = 0; n < total; n += 1) {
    const due = started + (n * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 1) await delay(wait);
    inflight.push(
      request(`${url}/api/v4/posts`, { method: 'POST', dispatcher, headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, body: body(n) }).then(
        async (res) => {
          await res.body.dump();
          if (res.statusCode === 201) answeredAt[n] = performance.now();
          else failures += 1;
        },
        () => {
          failures += 1;
        },
      ),
    );
  }
  await Promise.all(inflight);
  const sentSeconds = (performance.now() - started) / 1000;
  // Let the last events arrive (bounded).
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && received.some((r) => r.length / 2 < total - failures)) await delay(100);

  const latencies: number[] = [];
  let missing = 0;
  for (const list of received) {
    const seen = new Set<number>();
    for (let k = 0; k < list.length; k += 2) {
      const n = list[k] ?? -1;
      const at = list[k + 1] ?? 0;
      const answered = answeredAt[n];
      seen.add(n);
      if (answered !== undefined && !Number.isNaN(answered)) latencies.push(Math.max(0, at - answered));
    }
    missing += total - failures - seen.size;
  }
  const sorted = Float64Array.from(latencies).sort();
  process.stdout.write(
    `realtime fan-out [${label}]: ${total - failures} posts in ${sentSeconds.toFixed(1)} s (${failures} failed), ${sorted.length} deliveries, ${missing} missing; ` +
      `POST answer -> posted event p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${percentile(sorted, 100).toFixed(1)} ms\n`,
  );
  const cpuAfter = serverPid === undefined ? undefined : processCpuMs(serverPid);
  if (cpuBefore !== undefined && cpuAfter !== undefined && sorted.length > 0) {
    process.stdout.write(
      `realtime fan-out [${label}]: server process CPU ${((cpuAfter - cpuBefore) / 1000).toFixed(1)} s for ${total - failures} posts and ${sorted.length} deliveries (${(((cpuAfter - cpuBefore) * 1000) / sorted.length).toFixed(1)} µs per delivery, post handling included); load average ${loadavg()[0]?.toFixed(1)}\n`,
    );
  }
  for (const ws of sockets) ws.terminate();
  await dispatcher.close();
}

export async function run(): Promise<void> {
  if (wantsTarget('embedded')) {
    const embedded = await startEmbeddedProcess();
    try {
      await idle(embedded.url, embedded.pid);
      await fanout('embedded', embedded.url, embedded.pid);
      const rss = rssMb(embedded.pid);
      if (rss !== undefined) process.stdout.write(`realtime [embedded]: RSS after the fan-out run ${rss} MB\n`);
    } finally {
      await embedded.stop();
    }
  }
  const url = externalTarget();
  if (url && wantsTarget('distributed')) await fanout('distributed', url);
  else process.stdout.write('realtime [distributed]: skipped (set SWITCHYARD_URL to a running distributed Switchyard on loopback)\n');
}

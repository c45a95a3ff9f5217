/**
 * The WebSocket API (`GET /api/v4/websocket`):
 * - idle: BENCH_WS_IDLE (default 5,000) authenticated sockets held open on the embedded runtime (own
 *   process); its RSS before and after, and per socket;
 * - fan-out: BENCH_WS_MEMBERS (default 500) bots, each with a socket, in one channel; posts at
 *   BENCH_WS_RATE per second (default 200) for BENCH_WS_SECONDS (default 10); latency from the moment the
 *   `POST /api/v4/posts` answer is read to each socket's `posted` event (an event that arrives before the
 *   answer counts as 0), p50/p99 over every (post, socket) pair. Embedded; distributed on SWITCHYARD_URL
 *   when set, else a distributed runtime this module starts itself on deploy/local's servers (isolated
 *   names, removed afterwards; BENCH_WS_REPLICAS realtime replicas, default 1).
 * - CPU per delivery: each server process's CPU (user + system, /proc) over the posting and draining,
 *   divided by the deliveries the server was asked for (posts answered 201 × members), and per post (what
 *   posts spends is per post: its "per delivery" is its per-post CPU divided by the members), with the load
 *   average: the figure that survives a shared, overloaded box better than the latency does.
 * Targets (mattermost spec README): fan-out p99 <= 50 ms embedded, <= 100 ms distributed.
 */
import { loadavg } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { Agent, request } from 'undici';
import WebSocket from 'ws';
import { processCpuMs } from '../bench-support/cpu';
import { distributedProcesses } from '../bench-support/target-processes';
import { openRawWebSocket, type RawWebSocket } from '../bench-support/ws-frame-reader';
import { serversConfigured, startDistributedProcess } from '../bench-support/distributed';
import { adminToken, externalTarget, must, rssMb, startEmbeddedProcess, wantsTarget } from '../bench-support/target';

const IDLE = Number(process.env.BENCH_WS_IDLE ?? 5_000);
const MEMBERS = Number(process.env.BENCH_WS_MEMBERS ?? 500);
const RATE = Number(process.env.BENCH_WS_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_WS_SECONDS ?? 10);

function wsUrl(url: string): string {
  return `${url.replace(/^http/, 'ws')}/api/v4/websocket`;
}

/** Opens a socket with the token in the upgrade and resolves at its hello; frames are given as bytes. */
function connect(url: string, token: string, onMessage?: (frame: Buffer) => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl(url), { headers: { authorization: `Bearer ${token}` }, perMessageDeflate: false, skipUTF8Validation: true });
    let greeted = false;
    ws.on('message', (data: WebSocket.RawData) => {
      const frame = Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
      if (!greeted && frame.includes('"event": "hello"')) {
        greeted = true;
        resolve(ws);
        return;
      }
      onMessage?.(frame);
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

const POSTED = Buffer.from('{"event": "posted"');
const HELLO = Buffer.from('"event": "hello"');
const MARKER = Buffer.from('fanout-');

/** n of the `fanout-<n>-x` marker in the posted frame at chunk[start, end), or -1 (read from the bytes: the client stays cheap). */
function markerOf(chunk: Buffer, start: number, end: number): number {
  if (end - start < POSTED.length || chunk.compare(POSTED, 0, POSTED.length, start, start + POSTED.length) !== 0) return -1;
  const at = chunk.indexOf(MARKER, start);
  if (at < 0 || at >= end) return -1;
  let n = 0;
  let i = at + MARKER.length;
  for (; i < end && (chunk[i] ?? 0) >= 48 && (chunk[i] ?? 0) <= 57; i += 1) n = n * 10 + (chunk[i] ?? 0) - 48;
  return i > at + MARKER.length ? n : -1;
}

/**
 * A fan-out receiver: a raw socket parsed in place (ws-frame-reader: no Buffer, string or event per frame),
 * resolved at its hello; `onFrame` gets each later text frame's bytes and when its chunk was read.
 */
function connectReader(url: string, token: string, onFrame: (chunk: Buffer, start: number, end: number, at: number) => void): Promise<RawWebSocket> {
  return new Promise((resolve, reject) => {
    let greeted = false;
    let opened: RawWebSocket | undefined;
    let helloSeen = false;
    const done = (): void => {
      if (greeted || !opened || !helloSeen) return;
      greeted = true;
      resolve(opened);
    };
    openRawWebSocket(wsUrl(url), { authorization: `Bearer ${token}` }, (chunk, start, end, at) => {
      if (!helloSeen) {
        const i = chunk.indexOf(HELLO, start);
        if (i >= 0 && i < end) {
          helloSeen = true;
          done();
          return;
        }
      }
      onFrame(chunk, start, end, at);
    }).then((ws) => {
      opened = ws;
      done();
    }, reject);
  });
}

interface ServerProcess {
  readonly name: string;
  readonly pid: number;
}

function cpuOf(processes: readonly ServerProcess[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of processes) {
    const ms = processCpuMs(p.pid);
    if (ms !== undefined) out.set(p.name, ms);
  }
  return out;
}

async function fanout(label: string, url: string, processes: readonly ServerProcess[]): Promise<void> {
  const admin = await adminToken(url);
  await must(url, 'PUT', '/api/v4/config/patch', { ServiceSettings: { EnableBotAccountCreation: true }, TeamSettings: { MaxUsersPerTeam: MEMBERS + 10 } }, admin, 200);
  const suffix = Math.random().toString(36).slice(2, 8);
  const team = await must(url, 'POST', '/api/v4/teams', { name: `benchws-${suffix}`, display_name: `Bench WS ${suffix}`, type: 'O' }, admin, 201);
  const channel = await must(url, 'POST', '/api/v4/channels', { team_id: team.id, name: `wsfan-${suffix}`, display_name: 'Fan-out', type: 'O' }, admin, 201);
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
  /** When each POST left the client: events often arrive before the answer (embedded), so this figure too. */
  const sentAt = new Float64Array(total).fill(Number.NaN);
  /** Per socket: when the `posted` of post n was read (performance.now()), NaN until then. */
  const received: Float64Array[] = [];
  const counts: number[] = [];
  const sockets = await inBatches(tokens.length, 50, (i) => {
    const mine = new Float64Array(total).fill(Number.NaN);
    received[i] = mine;
    counts[i] = 0;
    return connectReader(url, tokens[i] ?? '', (chunk, start, end, at) => {
      const n = markerOf(chunk, start, end);
      if (n >= 0 && n < total && Number.isNaN(mine[n])) {
        mine[n] = at;
        counts[i] = (counts[i] ?? 0) + 1;
      }
    });
  });
  process.stdout.write(`realtime fan-out [${label}]: ${sockets.length} bots in one channel, connected (setup ${((Date.now() - setupStarted) / 1000).toFixed(1)} s); ${RATE} posts/s for ${SECONDS} s\n`);

  const dispatcher = new Agent({ connections: 32, pipelining: 1 });
  const body = (n: number): string => JSON.stringify({ channel_id: channel.id, message: `fanout-${n}-x` });
  const loadBefore = loadavg()[0] ?? 0;
  const clientBefore = processCpuMs(process.pid) ?? 0;
  const cpuBefore = cpuOf(processes);
  const started = performance.now();
  let failures = 0;
  const inflight: Promise<void>[] = [];
  for (let n = 0; n < total; n += 1) {
    const due = started + (n * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 1) await delay(wait);
    sentAt[n] = performance.now();
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
  while (Date.now() < deadline && counts.some((c) => c < total - failures)) await delay(100);
  // CPU over the posting and draining only (not this process's sorting below).
  const cpuAfter = cpuOf(processes);
  const clientMs = (processCpuMs(process.pid) ?? 0) - clientBefore;

  const latencies: number[] = [];
  const fromSend: number[] = [];
  let missing = 0;
  for (const list of received) {
    let seen = 0;
    for (let n = 0; n < total; n += 1) {
      const at = list[n] ?? Number.NaN;
      if (Number.isNaN(at)) continue;
      seen += 1;
      const answered = answeredAt[n] ?? Number.NaN;
      if (!Number.isNaN(answered)) {
        latencies.push(Math.max(0, at - answered));
        fromSend.push(at - (sentAt[n] ?? at));
      }
    }
    missing += total - failures - seen;
  }
  const sorted = Float64Array.from(latencies).sort();
  const sortedSend = Float64Array.from(fromSend).sort();
  process.stdout.write(
    `realtime fan-out [${label}]: ${total - failures} posts in ${sentSeconds.toFixed(1)} s (${failures} failed), ${sorted.length} deliveries, ${missing} missing; ` +
      `POST answer -> posted event p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${percentile(sorted, 100).toFixed(1)} ms (0 = before the answer); POST sent -> posted event p50 ${percentile(sortedSend, 50).toFixed(1)} ms, p99 ${percentile(sortedSend, 99).toFixed(1)} ms\n`,
  );
  const asked = (total - failures) * sockets.length;
  const parts: string[] = [];
  for (const [name, after] of cpuAfter) {
    const before = cpuBefore.get(name);
    if (before === undefined || asked === 0) continue;
    // Per delivery for the fan-out processes; per post too, since a process's work may be per post (posts
    // stores each post once, whatever the channel's size) rather than per receiver.
    parts.push(`${name} ${((after - before) / 1000).toFixed(1)} s = ${(((after - before) * 1000) / asked).toFixed(2)} µs per delivery, ${((after - before) / (total - failures)).toFixed(2)} ms per post`);
  }
  process.stdout.write(
    `realtime fan-out [${label}]: server CPU (user + system) for ${total - failures} posts and ${asked} deliveries asked for (post handling included): ${parts.join('; ') || 'not measured'}; the benchmark's own client process ${(clientMs / 1000).toFixed(1)} s (all 500 sockets are read by this one process); load average ${loadBefore.toFixed(1)} at the start, ${(loadavg()[0] ?? 0).toFixed(1)} at the end\n`,
  );
  for (const ws of sockets) ws.socket.destroy();
  await dispatcher.close();
}

export async function run(): Promise<void> {
  if (wantsTarget('embedded')) {
    const embedded = await startEmbeddedProcess();
    try {
      if (IDLE > 0) await idle(embedded.url, embedded.pid);
      await fanout('embedded', embedded.url, [{ name: 'embedded', pid: embedded.pid }]);
      const rss = rssMb(embedded.pid);
      if (rss !== undefined) process.stdout.write(`realtime [embedded]: RSS after the fan-out run ${rss} MB\n`);
    } finally {
      await embedded.stop();
    }
  }
  if (!wantsTarget('distributed')) return;
  const url = externalTarget();
  if (url) {
    await fanout('distributed', url, distributedProcesses(url).filter((p) => !p.infrastructure));
    return;
  }
  if (!serversConfigured()) {
    process.stdout.write('realtime [distributed]: skipped (no Kafka/MongoDB/Redis in deploy/local/.env or the environment, and no SWITCHYARD_URL)\n');
    return;
  }
  const distributed = await startDistributedProcess({ REALTIME_REPLICAS: process.env.BENCH_WS_REPLICAS ?? '1' });
  try {
    const names = Object.keys(distributed.pids).filter((n) => n === 'gateway' || n.startsWith('realtime') || n === 'posts');
    await fanout('distributed', distributed.url, names.map((name) => ({ name, pid: distributed.pids[name] ?? 0 })));
  } finally {
    await distributed.stop();
  }
}

/**
 * Idle long-polls of GET /api/v4/events on the embedded runtime (a fresh `npm start`): `count` consumers wait
 * with nothing to get; the process's RSS before and while they wait (its peak, sampled), its CPU, and how
 * each is answered: its status, and how long after its wait (from when it was sent). Opened in waves of 500,
 * from this process over loopback.
 *
 * POLL_TARGET=distributed: the same against the distributed runtime (apps/launcher on deploy/local's servers),
 * the figures of its realtime process, and `gatewayMb` (the gateway's RSS before -> while waiting).
 */
import { readdirSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { processCpuMs } from './cpu';
import { startDistributedProcess } from './distributed';
import { adminToken, call, rssMb, startEmbeddedProcess } from './target';

export interface LongPollFigures {
  readonly count: number;
  readonly waitS: number;
  readonly baseMb: number;
  /** RSS a few seconds after the last poll was sent. */
  readonly waitingMb: number;
  /** Highest RSS sampled (every 250 ms) from the first poll to the last answer. */
  readonly peakMb: number;
  /** Answers by status (`200`; others with their error id) and connection errors by code. */
  readonly statuses: Record<string, number>;
  /** From sending to the answer, of the polls answered 200. */
  readonly minAnswerMs: number;
  readonly maxAnswerMs: number;
  /** Answer time minus the wait, ms: median, 99th percentile, highest (of the polls answered 200). */
  readonly lateMs: { readonly p50: number; readonly p99: number; readonly max: number };
  /** CPU of the runtime's process from the first poll to the last answer, ms. */
  readonly serverCpuMs: number;
  /** Distributed: the gateway's RSS before the polls and while they wait. */
  readonly gatewayMb?: { readonly base: number; readonly waiting: number };
  /** Open file descriptors (sockets included) of the runtime's process (realtime) and the gateway, before -> while they wait. */
  readonly fds?: { readonly base: number; readonly waiting: number; readonly gatewayBase?: number; readonly gatewayWaiting?: number };
}

/** The Mattermost error id of an error answer's body ('' when it has none). */
function errorId(body: string): string {
  try {
    return String((JSON.parse(body) as { id?: unknown }).id ?? '');
  } catch {
    return '';
  }
}

/** Open file descriptors of a process (Linux), undefined when unknown. */
function openFds(pid: number | undefined): number | undefined {
  try {
    return pid === undefined ? undefined : readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return undefined;
  }
}

/** The runtime under test: its URL, the process measured (embedded, or realtime), and the gateway's (distributed). */
async function startTarget(target: string): Promise<{ url: string; pid: number; gatewayPid?: number; stop(): Promise<void> }> {
  if (target !== 'distributed') return startEmbeddedProcess();
  const runtime = await startDistributedProcess();
  const pid = runtime.pids.realtime;
  const gatewayPid = runtime.pids.gateway;
  if (pid === undefined || gatewayPid === undefined) {
    await runtime.stop();
    throw new Error(`no realtime or gateway pid among ${JSON.stringify(runtime.pids)}`);
  }
  return { url: runtime.url, pid, gatewayPid, stop: () => runtime.stop() };
}

/** Between waves of 500 (POLL_WAVE_MS). */
const WAVE_PAUSE_MS = Number(process.env.POLL_WAVE_MS ?? 100);

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

export async function idleLongPolls(count: number, waitS = 20, target = 'embedded'): Promise<LongPollFigures> {
  const runtime = await startTarget(target);
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  try {
    const token = await adminToken(runtime.url);
    const first = await call(runtime.url, 'GET', '/api/v4/events', undefined, token);
    const cursor = encodeURIComponent(String((first.json as { cursor?: unknown }).cursor));
    await sleep(2000);
    // POLL_HEAP_SNAPSHOTS=1 with BENCH_NODE_ARGS='--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=<dir>': a heap snapshot before and while they wait.
    const snapshots = process.env.POLL_HEAP_SNAPSHOTS === '1';
    if (snapshots) {
      process.kill(runtime.pid, 'SIGUSR2');
      await sleep(5000);
    }
    const baseMb = rssMb(runtime.pid) ?? 0;
    const fdsBase = { base: openFds(runtime.pid) ?? 0, gateway: openFds(runtime.gatewayPid) };
    const gatewayBase = runtime.gatewayPid === undefined ? 0 : (rssMb(runtime.gatewayPid) ?? 0);
    let peakMb = baseMb;
    const sampler = setInterval(() => (peakMb = Math.max(peakMb, rssMb(runtime.pid) ?? 0)), 250);
    const cpuBefore = processCpuMs(runtime.pid) ?? 0;
    const statuses: Record<string, number> = {};
    const times: number[] = [];
    const polls: Promise<void>[] = [];
    for (let i = 0; i < count; i += 1) {
      if (i > 0 && i % 500 === 0) await sleep(WAVE_PAUSE_MS);
      const started = Date.now();
      polls.push(
        new Promise<void>((resolve) => {
          const req = get(`${runtime.url}/api/v4/events?cursor=${cursor}&wait=${waitS}`, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
            // Anything but 200 is counted with its error id (`503 api.events.too_many_waiting.app_error`).
            let body = '';
            if (res.statusCode === 200) res.resume();
            else res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
            res.on('end', () => {
              const id = res.statusCode === 200 ? '' : ` ${errorId(body)}`;
              const key = `${String(res.statusCode)}${id}`;
              statuses[key] = (statuses[key] ?? 0) + 1;
              if (res.statusCode === 200) times.push(Date.now() - started);
              resolve();
            });
          });
          req.on('error', (error: NodeJS.ErrnoException) => {
            statuses[error.code ?? 'error'] = (statuses[error.code ?? 'error'] ?? 0) + 1;
            resolve();
          });
        }),
      );
    }
    await sleep(Math.min(5_000, (waitS * 1000) / 3));
    // The runtime may still be taking them in (a loaded box, a heap snapshot in progress): sampled once it
    // holds a socket per poll (or a third of the wait has passed again).
    for (const until = Date.now() + (waitS * 1000) / 3; Date.now() < until && (openFds(runtime.pid) ?? count) - fdsBase.base < count; ) await sleep(250);
    const waitingMb = rssMb(runtime.pid) ?? 0;
    const fdsWaiting = { waiting: openFds(runtime.pid) ?? 0, gateway: openFds(runtime.gatewayPid) };
    if (snapshots) process.kill(runtime.pid, 'SIGUSR2');
    const gatewayWaiting = runtime.gatewayPid === undefined ? 0 : (rssMb(runtime.gatewayPid) ?? 0);
    await Promise.all(polls);
    clearInterval(sampler);
    const serverCpuMs = (processCpuMs(runtime.pid) ?? 0) - cpuBefore;
    const late = times.map((t) => t - waitS * 1000).sort((a, b) => a - b);
    return {
      count,
      waitS,
      baseMb,
      waitingMb,
      peakMb,
      statuses,
      minAnswerMs: Math.min(...times),
      maxAnswerMs: Math.max(...times),
      lateMs: { p50: percentile(late, 50), p99: percentile(late, 99), max: late[late.length - 1] ?? 0 },
      serverCpuMs,
      ...(runtime.gatewayPid === undefined ? {} : { gatewayMb: { base: gatewayBase, waiting: gatewayWaiting } }),
      fds: { base: fdsBase.base, waiting: fdsWaiting.waiting, ...(fdsBase.gateway === undefined || fdsWaiting.gateway === undefined ? {} : { gatewayBase: fdsBase.gateway, gatewayWaiting: fdsWaiting.gateway }) },
    };
  } finally {
    agent.destroy();
    await runtime.stop();
  }
}

if (require.main === module) {
  void idleLongPolls(Number(process.env.POLLS ?? 1000), Number(process.env.POLL_WAIT ?? 20), process.env.POLL_TARGET ?? 'embedded').then((f) => process.stdout.write(`${JSON.stringify(f)}\n`));
}

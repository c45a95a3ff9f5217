/**
 * Outgoing webhooks: post → callback latency (one post at a time, p50/p99) and dispatcher deliveries/s
 * (many posts in flight, each firing a hook with several callback URLs), against a fresh embedded runtime
 * in its own process, and against SWITCHYARD_URL when set. The receiver listens on 127.0.0.1 in this
 * process. BENCH_OUTGOING_POSTS (default 400) and BENCH_OUTGOING_BURST (default 1000) size the runs. CPU per
 * delivery is the difference between the burst and the same burst in a channel no hook listens to (posts
 * alone), per delivery, over the target's processes (cpu.ts).
 */
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import type { AddressInfo } from 'node:net';
import { CpuMeter } from '../bench-support/cpu';
import { drain } from '../bench-support/load';
import { adminToken, assertLoopback, call, externalTarget, must, startEmbeddedProcess, wantsTarget } from '../bench-support/target';
import { distributedProcesses, embeddedProcesses, type TargetProcess } from '../bench-support/target-processes';

const POSTS = Number(process.env.BENCH_OUTGOING_POSTS ?? 400);
const WARMUP = 50;
const BURST = Number(process.env.BENCH_OUTGOING_BURST ?? 1000);
const URLS_PER_HOOK = 4;
const CONCURRENCY = 32;

export interface OutgoingBenchFigure {
  readonly target: string;
  readonly latencyP50Ms: number;
  readonly latencyP99Ms: number;
  /** Distinct deliveries (webhook-id) per second; repeated requests of one delivery are not counted. */
  readonly deliveriesPerSecond: number;
  /** Requests beyond the first of each delivery (retries, redeliveries). */
  readonly duplicates: number;
  /**
   * CPU per delivery, every process of the target (Kafka, MongoDB, Redis included): the burst's CPU minus that
   * of the same burst in a channel without hooks, divided by the deliveries.
   */
  readonly cpuAllMsPerDelivery: number;
  /** The same, Switchyard's own processes only. */
  readonly cpuSwitchyardMsPerDelivery: number;
}

/** The receiver: resolves the waiter of each post id when its callback arrives. */
async function startReceiver(): Promise<{ url: string; waitFor(postId: string): Promise<number>; received(): number; requests(): number; close(): Promise<void> }> {
  const waiters = new Map<string, (at: number) => void>();
  const early = new Map<string, number>();
  // Deliveries are counted once each, by webhook-id (a retry repeats it); every request is counted too.
  const deliveries = new Set<string>();
  let requests = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      requests += 1;
      deliveries.add(`${String(req.headers['webhook-id'] ?? `no-id-${requests}`)} ${req.url ?? ''}`);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('');
      if (req.url !== '/latency') return;
      const postId = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { post_id: string }).post_id;
      const waiter = waiters.get(postId);
      if (waiter) waiter(at);
      else early.set(postId, at);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    waitFor: (postId) => {
      const seen = early.get(postId);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no callback for ${postId} within 10 s`)), 10_000);
        waiters.set(postId, (at) => {
          clearTimeout(timer);
          waiters.delete(postId);
          resolve(at);
        });
      });
    },
    received: () => deliveries.size,
    requests: () => requests,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

function percentile(sorted: readonly number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round((sorted[index] ?? 0) * 100) / 100;
}

/** BURST posts into the channel, CONCURRENCY at a time. */
async function postBurst(url: string, token: string, channelId: unknown, label: string): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < BURST) {
        next += 1;
        await must(url, 'POST', '/api/v4/posts', { channel_id: channelId, message: `${label} ${next}` }, token, 201);
      }
    }),
  );
}

async function measure(name: string, url: string, processes: readonly TargetProcess[]): Promise<OutgoingBenchFigure> {
  assertLoopback(url);
  const token = await adminToken(url);
  const receiver = await startReceiver();
  const previous = (await must(url, 'GET', '/api/v4/config', undefined, token, 200)) as { ServiceSettings: { AllowedUntrustedInternalConnections: string } };
  await must(url, 'PUT', '/api/v4/config/patch', { ServiceSettings: { AllowedUntrustedInternalConnections: '127.0.0.1' } }, token, 200);
  try {
    const suffix = Math.random().toString(36).slice(2, 8);
    const team = await must(url, 'POST', '/api/v4/teams', { name: `bench${suffix}`, display_name: 'Bench', type: 'O' }, token, 201);
    const latencyChannel = await must(url, 'POST', '/api/v4/channels', { team_id: team.id, name: `lat${suffix}`, display_name: 'Latency', type: 'O' }, token, 201);
    const burstChannel = await must(url, 'POST', '/api/v4/channels', { team_id: team.id, name: `burst${suffix}`, display_name: 'Burst', type: 'O' }, token, 201);
    const quietChannel = await must(url, 'POST', '/api/v4/channels', { team_id: team.id, name: `quiet${suffix}`, display_name: 'No hooks', type: 'O' }, token, 201);
    await must(url, 'POST', '/api/v4/hooks/outgoing', { team_id: team.id, channel_id: latencyChannel.id, callback_urls: [`${receiver.url}/latency`], content_type: 'application/json' }, token, 201);
    await must(url, 'POST', '/api/v4/hooks/outgoing', { team_id: team.id, channel_id: burstChannel.id, callback_urls: Array.from({ length: URLS_PER_HOOK }, (_, i) => `${receiver.url}/burst${i}`) }, token, 201);

    // Latency: one post at a time, from just before POST /api/v4/posts to the callback's arrival.
    const samples: number[] = [];
    for (let i = 0; i < WARMUP + POSTS; i += 1) {
      const started = performance.now();
      const post = await must(url, 'POST', '/api/v4/posts', { channel_id: latencyChannel.id, message: `latency ${i}` }, token, 201);
      const arrived = await receiver.waitFor(String(post.id));
      if (i >= WARMUP) samples.push(arrived - started);
    }
    samples.sort((a, b) => a - b);

    // The same burst where no hook listens: what the posts alone cost.
    const postsMeter = await CpuMeter.start(processes);
    await postBurst(url, token, quietChannel.id, 'quiet');
    const postsCpu = await postsMeter.finish(BURST);

    // Throughput: BURST posts, CONCURRENCY at a time, each firing URLS_PER_HOOK deliveries.
    const before = receiver.received();
    const expected = before + BURST * URLS_PER_HOOK;
    const meter = await CpuMeter.start(processes);
    const started = performance.now();
    await postBurst(url, token, burstChannel.id, 'burst');
    const postedIn = (performance.now() - started) / 1000;
    await drain(`outgoing [${name}]: ${BURST * URLS_PER_HOOK} deliveries`, async () => receiver.received() >= expected, 120_000);
    const seconds = (performance.now() - started) / 1000;
    const burstCpu = await meter.finish(BURST);
    const delivered = receiver.received() - before;
    const duplicates = receiver.requests() - receiver.received();
    const perDelivery = (withHooks: number, postsOnly: number): number => Math.round(((withHooks - postsOnly) / URLS_PER_HOOK) * 1000) / 1000;
    const figure = {
      target: name,
      latencyP50Ms: percentile(samples, 50),
      latencyP99Ms: percentile(samples, 99),
      deliveriesPerSecond: Math.round(delivered / seconds),
      duplicates,
      cpuAllMsPerDelivery: perDelivery(burstCpu.allMs, postsCpu.allMs),
      cpuSwitchyardMsPerDelivery: perDelivery(burstCpu.switchyardMs, postsCpu.switchyardMs),
    };
    process.stdout.write(
      `  ${name}: post → callback latency (one at a time, n=${samples.length}) p50 ${figure.latencyP50Ms} ms, p99 ${figure.latencyP99Ms} ms, max ${percentile(samples, 100)} ms\n` +
        `  ${name}: ${delivered}/${BURST * URLS_PER_HOOK} distinct deliveries in ${seconds.toFixed(2)} s (${BURST} posts, ${URLS_PER_HOOK} URLs each, ${CONCURRENCY} posting in parallel) → ${figure.deliveriesPerSecond} deliveries/s; ${duplicates} repeated requests (retries) not counted (the posts themselves took ${postedIn.toFixed(2)} s: ${Math.round(BURST / postedIn)} posts/s)\n` +
        `  ${name}: CPU per post with ${URLS_PER_HOOK} deliveries ${burstCpu.allMs.toFixed(2)} ms, without hooks ${postsCpu.allMs.toFixed(2)} ms → per delivery ${figure.cpuAllMsPerDelivery} ms all processes, ${figure.cpuSwitchyardMsPerDelivery} ms Switchyard's own (load average ${loadavg().map((l) => l.toFixed(1)).join(' ')})\n`,
    );
    if (delivered !== BURST * URLS_PER_HOOK) throw new Error(`outgoing [${name}]: ${delivered} distinct deliveries for ${BURST * URLS_PER_HOOK} expected`);
    return figure;
  } finally {
    await call(url, 'PUT', '/api/v4/config/patch', { ServiceSettings: { AllowedUntrustedInternalConnections: previous.ServiceSettings.AllowedUntrustedInternalConnections } }, token);
    await receiver.close();
  }
}

export async function run(): Promise<OutgoingBenchFigure[]> {
  const figures: OutgoingBenchFigure[] = [];
  if (wantsTarget('embedded')) {
    const embedded = await startEmbeddedProcess();
    try {
      figures.push(await measure('embedded', embedded.url, embeddedProcesses(embedded.pid)));
    } finally {
      await embedded.stop();
    }
  }
  const external = externalTarget();
  if (external && wantsTarget('distributed')) figures.push(await measure('distributed', external, distributedProcesses(external)));
  else process.stdout.write('  distributed: SWITCHYARD_URL not set, skipped\n');
  return figures;
}

/**
 * Dispatcher scale-out (issue 16, item 5): distinct deliveries per second to a receiver on 127.0.0.1 that
 * answers after 50 ms, with 1, 2 and 3 outgoing-dispatch processes sharing the 6 partitions of posts.events
 * (a dispatcher attempts the deliveries of the posts it handles, ADR 0013), on the real local Kafka,
 * MongoDB-wire and Redis (deploy/local/.env). Each round starts its dispatchers and waits until their
 * consumer group is stable with every member assigned, then pauses them (SIGSTOP), posts BENCH_SCALE_POSTS
 * posts (default 300) across 12 channels, two on each partition of posts.events (as a deployment's many
 * channels spread on average; with 12 random ones, hash luck would give one dispatcher more of the work than
 * the other), each channel firing 2 hooks × 2 callback URLs, and resumes them (SIGCONT): the backlog is
 * drained by a group that is already balanced, so no delivery happens before the measurement starts and no
 * rebalance happens during it (before, the dispatchers started on a backlog: the first member to join took
 * every partition and had drained most of it by the time the group was stable, so a round with two
 * dispatchers measured too few deliveries at the default size). The pause lasts as long as posting (1-8 s
 * on this box), within the session timeout the bench gives its dispatchers (KAFKA_SESSION_TIMEOUT_MS 60 s; a
 * round whose posting takes longer fails instead of measuring a rebalance). It counts each delivery once (by webhook-id and
 * URL), from the resume to the last delivery (bounded by 180 s), and reports repeated requests separately.
 * Each dispatcher runs BENCH_SCALE_CONCURRENCY attempts at once (DELIVERY_CONCURRENCY, default 8 here): its
 * limit against the 50 ms receiver is then its concurrency, not this shared 2-core box's CPU, which is
 * what a second dispatcher doubles. The figure is the 1 → 2 ratio (goal ≥ 1.8). BENCH_SCALE_ROUNDS (default "1,2,3,2,1": 1 and 2 twice, symmetric in time, each figure their mean) orders the rounds; the load average
 * is printed with each, since the box is shared. Skipped when the local servers are not configured.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { Partitioners } from 'kafkajs';
import { processCpuMs } from '../bench-support/cpu';
import { infrastructureProcesses, type TargetProcess } from '../bench-support/target-processes';
import { localServers, startDispatchStack, type DispatchStack } from '../bench-support/dispatch-stack';
import { call } from '../../tests/drills/src/support/processes';
import { startReceiver, type Receiver } from '../../tests/drills/src/support/receiver';

const POSTS = Number(process.env.BENCH_SCALE_POSTS ?? 300);
const ROUNDS = (process.env.BENCH_SCALE_ROUNDS ?? '1,2,3,2,1').split(',').map(Number);
const CHANNELS = 12;
const HOOKS_PER_CHANNEL = 2;
const URLS_PER_HOOK = 2;
const FANOUT = HOOKS_PER_CHANNEL * URLS_PER_HOOK;
const RECEIVER_DELAY_MS = 50;
const POSTING_CONCURRENCY = 16;
const DRAIN_TIMEOUT_MS = 180_000;
/** The dispatchers' group session timeout here: they stay members while paused for the posting. */
const SESSION_TIMEOUT_MS = 60_000;
const CONCURRENCY = process.env.BENCH_SCALE_CONCURRENCY ?? '8';
/** posts.events' partitions (deploy/local/topics.txt) and Kafka's default partitioner, as posts' producer uses it. */
const POSTS_EVENTS_PARTITIONS = 6;
const defaultPartitioner = Partitioners.DefaultPartitioner();
const partitionMetadata = Array.from({ length: POSTS_EVENTS_PARTITIONS }, (_, partitionId) => ({ partitionId, leader: 0, partitionErrorCode: 0, replicas: [0], isr: [0] }));
const partitionOf = (key: string): number => defaultPartitioner({ topic: 'posts.events', partitionMetadata, message: { key, value: null } });
/**
 * For profiling: BENCH_CPU_PROF=<dir> makes each dispatcher write a CPU profile there when it stops;
 * BENCH_SCALE_DISPATCH_ENV='{"DELIVERY_CONCURRENCY":"8"}' adds env to the dispatchers; BENCH_SCALE_DEBUG=1
 * prints deliveries per second of each round and the dispatchers' warnings.
 */
const DISPATCHER_OPTIONS = {
  env: { DELIVERY_CONCURRENCY: CONCURRENCY, KAFKA_SESSION_TIMEOUT_MS: String(SESSION_TIMEOUT_MS), ...(JSON.parse(process.env.BENCH_SCALE_DISPATCH_ENV ?? '{}') as Record<string, string>) },
  nodeArgs: process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [],
};

export interface ScaleOutRound {
  readonly dispatchers: number;
  readonly deliveries: number;
  readonly seconds: number;
  readonly deliveriesPerSecond: number;
  /** Requests of the round beyond the first of each delivery (at-least-once repeats), counted apart. */
  readonly duplicates: number;
  /** Distinct deliveries each dispatcher sent (by the owner of the client socket). */
  readonly perDispatcher: readonly number[];
  readonly cpuMsPerDelivery: number;
  /** The dispatchers' write system calls per delivery (sockets and logs; /proc/<pid>/io `syscw`). */
  readonly writesPerDelivery: number;
  /** CPU of Kafka, MongoDB-wire and Redis per delivery over the same time (shared servers: other clients' work included). */
  readonly serversCpuMsPerDelivery: number;
  readonly load1: number;
}

async function must(stack: DispatchStack, path: string, body: unknown): Promise<string> {
  const res = await call(stack.gatewayUrl, 'POST', path, { token: stack.token, body });
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return String(res.body.id);
}

/**
 * A team of its own per round (fireHooks reads a team's hooks), 12 channels, two per partition of
 * posts.events (channels are made until each partition has two; the others stay without hooks), with 2
 * hooks of 2 URLs each.
 */
async function prepareRound(stack: DispatchStack, receiver: Receiver, round: number): Promise<string[]> {
  const suffix = `${round}${Math.random().toString(36).slice(2, 7)}`;
  const teamId = await must(stack, '/api/v4/teams', { name: `scale${suffix}`, display_name: 'Scale', type: 'O' });
  const perPartition = CHANNELS / POSTS_EVENTS_PARTITIONS;
  const onPartition = new Map<number, number>();
  const channels: string[] = [];
  for (let made = 0; channels.length < CHANNELS; made += 1) {
    if (made >= CHANNELS * 10) throw new Error(`scale-out: ${made} channels made, still not ${perPartition} on each partition`);
    const channelId = await must(stack, '/api/v4/channels', { team_id: teamId, name: `scale${suffix}x${made}`, display_name: `Scale ${made}`, type: 'O' });
    const partition = partitionOf(channelId);
    if ((onPartition.get(partition) ?? 0) >= perPartition) continue;
    onPartition.set(partition, (onPartition.get(partition) ?? 0) + 1);
    const c = channels.length;
    for (let h = 0; h < HOOKS_PER_CHANNEL; h += 1) {
      const urls = Array.from({ length: URLS_PER_HOOK }, (_, u) => `${receiver.url}/r${round}/c${c}h${h}u${u}`);
      await must(stack, '/api/v4/hooks/outgoing', { team_id: teamId, channel_id: channelId, callback_urls: urls, content_type: 'application/json' });
    }
    channels.push(channelId);
  }
  return channels;
}

async function postAll(stack: DispatchStack, channels: readonly string[]): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: POSTING_CONCURRENCY }, async () => {
      while (next < POSTS) {
        const i = next;
        next += 1;
        await must(stack, '/api/v4/posts', { channel_id: channels[i % channels.length], message: `scale ${i}` });
      }
    }),
  );
}

/** The distinct deliveries (webhook-id and URL) of one round so far, with when and by whom each first arrived. */
function distinctOf(receiver: Receiver, prefix: string): Map<string, { at: number; by: string }> {
  const distinct = new Map<string, { at: number; by: string }>();
  for (const r of receiver.requests) {
    if (!r.path.startsWith(prefix)) continue;
    const key = `${String(r.headers['webhook-id'])} ${r.path}`;
    if (!distinct.has(key)) distinct.set(key, { at: r.at, by: r.by });
  }
  return distinct;
}

function requestsOf(receiver: Receiver, prefix: string): number {
  return receiver.requests.filter((r) => r.path.startsWith(prefix)).length;
}

/** SIGSTOP / SIGCONT of every dispatcher (a paused process keeps its group membership for the session timeout). */
function signalAll(dispatchers: readonly { readonly pid?: number | undefined }[], signal: 'SIGSTOP' | 'SIGCONT'): void {
  for (const d of dispatchers) {
    try {
      if (d.pid !== undefined) process.kill(d.pid, signal);
    } catch {
      // it exited (its round fails on its missing deliveries)
    }
  }
}

/** A process's write system calls so far (/proc/<pid>/io `syscw`; 0 when unreadable). */
function writeCalls(pid: number): number {
  try {
    return Number(/syscw: (\d+)/.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** CPU ms of the shared servers (Kafka, MongoDB-wire, Redis) so far, by name. */
function infrastructureCpuMs(servers: readonly TargetProcess[]): number[] {
  return servers.map((p) => processCpuMs(p.pid) ?? 0);
}

/**
 * One round: `count` dispatchers start and their group becomes stable (idle: the round's posts are not
 * made yet), they are paused, the posts are made (a backlog in posts.events), and they are resumed. Every
 * delivery of the round is measured, from the resume to the last delivery.
 */
async function runRound(stack: DispatchStack, receiver: Receiver, owners: Map<string, number | undefined>, round: number, channels: readonly string[], count: number): Promise<ScaleOutRound> {
  const prefix = `/r${round}/`;
  const expected = POSTS * FANOUT;
  const dispatchers = await stack.startDispatchers(count, DISPATCHER_OPTIONS);
  owners.clear();
  dispatchers.forEach((d, i) => owners.set(`d${i + 1}`, d.pid));
  const servers = infrastructureProcesses();
  try {
    await stack.groupsStable(count);
    signalAll(dispatchers, 'SIGSTOP');
    const posting = Date.now();
    try {
      await postAll(stack, channels);
    } finally {
      signalAll(dispatchers, 'SIGCONT');
    }
    const resumedAt = Date.now();
    const postedMs = resumedAt - posting;
    if (postedMs > SESSION_TIMEOUT_MS * 0.8) throw new Error(`scale-out [${count}]: posting took ${postedMs} ms, too close to the paused dispatchers' ${SESSION_TIMEOUT_MS} ms session timeout (lower BENCH_SCALE_POSTS)`);
    const cpuAtResume = dispatchers.map((d) => processCpuMs(d.pid ?? 0) ?? 0);
    const writesAtResume = dispatchers.map((d) => writeCalls(d.pid ?? 0));
    const serversAtResume = infrastructureCpuMs(servers);
    const until = Date.now() + DRAIN_TIMEOUT_MS;
    let distinct = distinctOf(receiver, prefix);
    while (distinct.size < expected && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      distinct = distinctOf(receiver, prefix);
    }
    const cpuMs = dispatchers.reduce((sum, d, i) => sum + ((processCpuMs(d.pid ?? 0) ?? 0) - (cpuAtResume[i] ?? 0)), 0);
    const writes = dispatchers.reduce((sum, d, i) => sum + writeCalls(d.pid ?? 0) - (writesAtResume[i] ?? 0), 0);
    const serversMs = infrastructureCpuMs(servers).reduce((sum, ms, i) => sum + ms - (serversAtResume[i] ?? 0), 0);
    if (distinct.size < expected) throw new Error(`scale-out [${count}]: ${distinct.size}/${expected} deliveries within ${DRAIN_TIMEOUT_MS / 1000} s`);
    const measured = [...distinct.values()];
    const early = measured.filter((d) => d.at < posting).length;
    if (early > 0) throw new Error(`scale-out [${count}]: ${early} deliveries arrived before the round's posts were made`);
    const seconds = (Math.max(...measured.map((d) => d.at)) - resumedAt) / 1000;
    const perDispatcher = dispatchers.map((_, i) => measured.filter((d) => d.by === `d${i + 1}`).length);
    if (process.env.BENCH_SCALE_DEBUG) {
      const perSecond = new Map<number, number>();
      for (const d of distinct.values()) perSecond.set(Math.floor((d.at - resumedAt) / 1000), (perSecond.get(Math.floor((d.at - resumedAt) / 1000)) ?? 0) + 1);
      process.stdout.write(`    per second from resume: ${[...perSecond].sort((a, b) => a[0] - b[0]).map(([t, n]) => `${t}:${n}`).join(' ')}\n`);
      for (const [i, d] of dispatchers.entries()) for (const line of d.lines.filter((l) => l.level !== 'info').slice(0, 8)) process.stdout.write(`    d${i + 1} ${JSON.stringify(line).slice(0, 300)}\n`);
    }
    const result: ScaleOutRound = {
      dispatchers: count,
      deliveries: measured.length,
      seconds,
      deliveriesPerSecond: Math.round(measured.length / seconds),
      duplicates: requestsOf(receiver, prefix) - distinct.size,
      perDispatcher,
      cpuMsPerDelivery: Math.round((cpuMs / measured.length) * 100) / 100,
      writesPerDelivery: Math.round((writes / measured.length) * 100) / 100,
      serversCpuMsPerDelivery: Math.round((serversMs / measured.length) * 100) / 100,
      load1: Math.round((loadavg()[0] ?? 0) * 10) / 10,
    };
    process.stdout.write(
      `  ${count} dispatcher(s): ${measured.length} of ${expected} deliveries (${POSTS} posts × ${FANOUT}, posted in ${(postedMs / 1000).toFixed(1)} s while the stable group was paused) in ${seconds.toFixed(2)} s after the resume → ` +
        `${result.deliveriesPerSecond} deliveries/s (${CONCURRENCY} attempts at once per dispatcher), ${result.duplicates} repeated requests not counted; per dispatcher ${perDispatcher.join('/')} (${measured.length - perDispatcher.reduce((a, b) => a + b, 0)} unattributed); ` +
        `CPU per delivery: dispatchers ${result.cpuMsPerDelivery} ms (${result.writesPerDelivery} write calls), ${servers.map((p) => p.name).join('+') || 'no server seen'} ${result.serversCpuMsPerDelivery} ms (shared servers: other clients' work included); load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}\n`,
    );
    return result;
  } finally {
    signalAll(dispatchers, 'SIGCONT');
    await stack.stopDispatchers();
  }
}

export async function run(): Promise<ScaleOutRound[]> {
  const servers = localServers();
  if (!servers) {
    process.stdout.write('  KAFKA_BROKERS, MONGO_URL and REDIS_URL not set (deploy/local/.env): skipped\n');
    return [];
  }
  const owners = new Map<string, number | undefined>();
  const receiver = await startReceiver({ owners: () => owners, delayMs: RECEIVER_DELAY_MS });
  const stack = await startDispatchStack(servers);
  const rounds: ScaleOutRound[] = [];
  try {
    // Hook CRUD goes through a dispatcher: every round's hooks are made first, then no dispatcher runs.
    await stack.startDispatchers(1);
    const channelsOf: string[][] = [];
    for (const [i] of ROUNDS.entries()) channelsOf.push(await prepareRound(stack, receiver, i + 1));
    await stack.stopDispatchers();
    for (const [i, count] of ROUNDS.entries()) rounds.push(await runRound(stack, receiver, owners, i + 1, channelsOf[i] ?? [], count));
  } finally {
    await stack.stop();
    await receiver.close();
  }
  const rate = (n: number): number | undefined => {
    const of = rounds.filter((r) => r.dispatchers === n).map((r) => r.deliveriesPerSecond);
    return of.length === 0 ? undefined : of.reduce((a, b) => a + b, 0) / of.length;
  };
  const [one, two, three] = [rate(1), rate(2), rate(3)];
  if (one && two) process.stdout.write(`  scale-out 1 → 2 dispatchers: ×${(two / one).toFixed(2)} (goal ≥ 1.8)${three ? `; 1 → 3: ×${(three / one).toFixed(2)}` : ''}\n`);
  return rounds;
}

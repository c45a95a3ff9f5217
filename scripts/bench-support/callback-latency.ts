/**
 * Where the distributed runtime's post → outgoing callback time goes (issue 33), one post at a time, as in
 * `BENCH_ONLY=outgoing`: starts a distributed target on deploy/local's servers (apps/launcher, as
 * `npm run bench -- --report` does), one outgoing hook with a receiver on 127.0.0.1, and a Kafka consumer of
 * the run's posts.events of its own. For each post it takes, on the one machine clock:
 *   - `answer`: POST /api/v4/posts sent → its answer;
 *   - `published`: POST sent → the post.created record's timestamp (set by posts' producer when it sends);
 *   - `fetched`: record timestamp → this consumer got it (produce acknowledged + a long-polling fetch answered;
 *     the dispatcher's own fetch is answered at the same moment);
 *   - `planned`: record timestamp → the delivery's create_at (the dispatcher decoded, matched and planned it);
 *   - `called`: create_at → the callback arrived (record stored, then the HTTP call);
 *   - `total`: POST sent → callback arrived.
 * Prints p50/p90/p99 of each. BENCH_LATENCY_POSTS (default 300) after 30 warm-up posts; BENCH_LATENCY_ENV
 * (JSON) adds env to every service (e.g. '{"KAFKA_MAX_WAIT_MS":"500"}'). BENCH_LATENCY_TARGET=embedded
 * measures the embedded runtime instead (no Kafka: `planned` is then counted from the POST).
 * `sent`, `answer`, the callback's arrival and this consumer's fetch are read from performance.now() on the
 * epoch (sub-millisecond: the embedded total is ~2 ms on a quiet box); the record's timestamp and the
 * delivery's create_at are whole milliseconds, so the segments that start or end at them are ±1 ms.
 *
 *   node --conditions=source --import tsx scripts/bench-support/callback-latency.ts
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import { startDistributedProcess } from './distributed';
import { adminToken, must, startEmbeddedProcess } from './target';

const POSTS = Number(process.env.BENCH_LATENCY_POSTS ?? 300);
/** Milliseconds since the epoch with performance.now()'s resolution (Date.now() counts whole ms). */
const now = (): number => performance.timeOrigin + performance.now();
const WARMUP = 30;

interface Sample {
  sent: number;
  answered?: number;
  recordAt?: number;
  fetchedAt?: number;
  plannedAt?: number;
  calledAt?: number;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

/** A consumer of the run's posts.events of its own: when each post.created record was stamped and fetched. */
async function watchPostsEvents(consumer: Consumer, topic: string, seen: Map<string, { recordAt: number; fetchedAt: number }>): Promise<void> {
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: false });
  let joined!: () => void;
  const isJoined = new Promise<void>((resolve) => (joined = resolve));
  consumer.on(consumer.events.GROUP_JOIN, () => joined());
  await consumer.run({
    eachMessage: async ({ message }) => {
      const at = now();
      const value = JSON.parse(message.value?.toString('utf8') ?? '{}') as { type?: string; payload?: { post?: { id?: string } } };
      const id = value.payload?.post?.id;
      if (value.type === 'post.created' && id !== undefined && !seen.has(id)) seen.set(id, { recordAt: Number(message.timestamp), fetchedAt: at });
    },
  });
  await isJoined;
}

async function main(): Promise<void> {
  const extraEnv = JSON.parse(process.env.BENCH_LATENCY_ENV ?? '{}') as Record<string, string>;
  const embedded = process.env.BENCH_LATENCY_TARGET === 'embedded';
  const target = embedded ? { ...(await startEmbeddedProcess()), mongoDbPrefix: '' } : await startDistributedProcess(extraEnv);
  const namespace = target.mongoDbPrefix.replace(/_$/, '.');
  const samples = new Map<string, Sample>();
  const arrivals = new Map<string, (at: number) => void>();
  /** Callbacks that arrived before their post's answer. */
  const early = new Map<string, number>();
  /** post id → its post.created record's timestamp and when this consumer got it. */
  const seen = new Map<string, { recordAt: number; fetchedAt: number }>();
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = now();
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('');
      const postId = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { post_id: string }).post_id;
      const waiter = arrivals.get(postId);
      if (waiter) waiter(at);
      else early.set(postId, at);
    });
  });
  receiver.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const kafka = new Kafka({ clientId: 'bench-callback-latency', brokers: (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(','), logLevel: logLevel.NOTHING });
  const consumer = kafka.consumer({ groupId: `${namespace}bench-latency`, maxWaitTimeInMs: 3000 });
  try {
    const url = target.url;
    const token = await adminToken(url);
    await must(url, 'PUT', '/api/v4/config/patch', { ServiceSettings: { AllowedUntrustedInternalConnections: '127.0.0.1' } }, token, 200);
    const suffix = Math.random().toString(36).slice(2, 8);
    const team = await must(url, 'POST', '/api/v4/teams', { name: `lat${suffix}`, display_name: 'Latency', type: 'O' }, token, 201);
    const channel = await must(url, 'POST', '/api/v4/channels', { team_id: team.id, name: `lat${suffix}`, display_name: 'Latency', type: 'O' }, token, 201);
    const hook = await must(url, 'POST', '/api/v4/hooks/outgoing', { team_id: team.id, channel_id: channel.id, callback_urls: [`${receiverUrl}/latency`], content_type: 'application/json' }, token, 201);

    if (!embedded) await watchPostsEvents(consumer, `${namespace}posts.events`, seen);

    for (let i = 0; i < WARMUP + POSTS; i += 1) {
      const sent = now();
      const post = await must(url, 'POST', '/api/v4/posts', { channel_id: channel.id, message: `latency ${i}` }, token, 201);
      const sample: Sample = { sent, answered: now() };
      const id = String(post.id);
      samples.set(id, sample);
      let timeout: NodeJS.Timeout | undefined;
      sample.calledAt = early.get(id) ?? (await new Promise<number>((resolve) => {
        arrivals.set(id, resolve);
        timeout = setTimeout(() => resolve(NaN), 10_000);
      }));
      clearTimeout(timeout);
      arrivals.delete(id);
      if (i < WARMUP) samples.delete(id);
    }
    // The deliveries' create_at (when the dispatcher planned each).
    for (let page = 0; ; page += 1) {
      const list = (await must(url, 'GET', `/api/v4/hooks/outgoing/${String(hook.id)}/deliveries?page=${page}&per_page=200`, undefined, token, 200)) as unknown as { post_id: string; create_at: number }[];
      for (const d of list) {
        const sample = samples.get(d.post_id);
        if (sample) sample.plannedAt = d.create_at;
      }
      if (list.length < 200) break;
    }
  } finally {
    await consumer.disconnect().catch(() => undefined);
    receiver.closeAllConnections();
    receiver.close();
    await target.stop();
  }
  for (const [id, sample] of samples) Object.assign(sample, seen.get(id) ?? {});
  const all = [...samples.values()];
  const segment = (name: string, of: (s: Sample) => number | undefined): void => {
    const values = all.map(of).filter((v): v is number => v !== undefined && Number.isFinite(v)).sort((a, b) => a - b);
    process.stdout.write(`  ${name.padEnd(10)} n=${String(values.length).padStart(4)}  p50 ${percentile(values, 50).toFixed(2).padStart(7)}  p90 ${percentile(values, 90).toFixed(2).padStart(7)}  p99 ${percentile(values, 99).toFixed(2).padStart(7)}  max ${percentile(values, 100).toFixed(2).padStart(7)} ms\n`);
  };
  const diff = (a: number | undefined, b: number | undefined): number | undefined => (a === undefined || b === undefined ? undefined : b - a);
  process.stdout.write(`callback latency, ${embedded ? 'embedded' : 'distributed'}, ${all.length} posts one at a time (env ${JSON.stringify(extraEnv)}):\n`);
  segment('answer', (s) => diff(s.sent, s.answered));
  segment('published', (s) => diff(s.sent, s.recordAt));
  segment('fetched', (s) => diff(s.recordAt, s.fetchedAt));
  segment('planned', (s) => diff(embedded ? s.sent : s.recordAt, s.plannedAt));
  segment('called', (s) => diff(s.plannedAt, s.calledAt));
  segment('total', (s) => diff(s.sent, s.calledAt));
  process.stdout.write(`  load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String((error as Error).stack ?? error)}\n`);
  process.exit(1);
});

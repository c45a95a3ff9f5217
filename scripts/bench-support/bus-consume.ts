/**
 * CPU per message of one Kafka consumer alone: this process subscribes one group (with `batchHandler` when
 * BUS_BATCH=1, else one handler call per message) and forks a child process that publishes at BUS_RATE, so
 * the figure is the consumer's only (fetch, decode, handler calls, heartbeats, commits), not the producer's.
 * A/B of the consumer path; on a loaded box alternate runs and compare several. BUS_BACKLOG=1 publishes
 * everything first and then measures the group draining it from the start (fetch sizes then do not depend on
 * scheduling, so the per-message cost of the consumer path stands out; the join is counted too).
 *
 *   set -a; . deploy/local/.env; set +a
 *   KAFKA_NAMESPACE=me. BUS_RATE=400 BUS_SECONDS=8 BUS_BATCH=1 node --conditions=source --import tsx scripts/bench-support/bus-consume.ts
 *
 * Loopback brokers only (KAFKA_BROKERS); topic and group `<KAFKA_NAMESPACE>bus-consume.<pid>`, deleted
 * afterwards. Bounded: BUS_RATE x BUS_SECONDS messages (at most 20,000), 30 s to drain.
 */
import { fork } from 'node:child_process';
import { cpuUsage } from 'node:process';
import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { Kafka, logLevel } from 'kafkajs';
import type { BusMessage } from '@switchyard/event-bus';
import { KafkaEventBus, type KafkaRequestInfo } from '@switchyard/event-bus-kafka';

const RATE = Number(process.env.BUS_RATE ?? 400);
const SECONDS = Number(process.env.BUS_SECONDS ?? 8);
const BATCH = process.env.BUS_BATCH === '1';
const BACKLOG = process.env.BUS_BACKLOG === '1';
const PARTITIONS = Number(process.env.BUS_PARTITIONS ?? 3);
const BROKERS = (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',').map((b) => b.trim());
const TOTAL = Math.min(20_000, Math.round(RATE * SECONDS));

async function produce(topic: string): Promise<void> {
  const bus = new KafkaEventBus({ brokers: BROKERS, clientId: 'bus-consume-producer' });
  try {
    const started = Date.now();
    const publishes: Promise<void>[] = [];
    for (let i = 0; i < TOTAL; i += 1) {
      const wait = started + (i * 1000) / RATE - Date.now();
      if (wait > 1 && !BACKLOG) await delay(wait);
      publishes.push(bus.publish(topic, [{ key: `k${i % 16}`, value: { at: Date.now(), i, text: 'x'.repeat(200) } }]));
    }
    await Promise.all(publishes);
  } finally {
    await bus.close();
  }
}

async function consume(): Promise<void> {
  if (!BROKERS.every((b) => /^(127\.0\.0\.1|localhost|\[::1\]):\d+$/.test(b))) throw new Error(`loopback brokers only, got ${BROKERS.join(',')}`);
  const requests = new Map<string, number>();
  const bus = new KafkaEventBus({ brokers: BROKERS, clientId: 'bus-consume', onRequest: (r: KafkaRequestInfo) => void requests.set(r.api, (requests.get(r.api) ?? 0) + 1) });
  const topic = `${process.env.KAFKA_NAMESPACE ?? ''}bus-consume.${process.pid}`;
  let handled = 0;
  let calls = 0;
  const latencies: number[] = [];
  const handle = (m: BusMessage): void => {
    latencies.push(Date.now() - (m.value as { at: number }).at);
    handled += 1;
  };
  try {
    await bus.ensureTopics([{ topic, partitions: PARTITIONS }]);
    const startProducer = (): Promise<number | null> => {
      const child = fork(process.argv[1] ?? '', [], { env: { ...process.env, BUS_CONSUME_ROLE: 'produce', BUS_CONSUME_TOPIC: topic }, execArgv: process.execArgv });
      return new Promise<number | null>((resolve) => child.on('exit', resolve));
    };
    const backlog = BACKLOG ? await startProducer() : undefined;
    const cpuBacklog = cpuUsage();
    const sub = await bus.subscribe({
      groupId: topic,
      topics: [topic],
      startAt: BACKLOG ? 'earliest' : 'latest',
      handler: async (m) => {
        calls += 1;
        handle(m);
      },
      ...(BATCH
        ? {
            batchHandler: async (messages: readonly BusMessage[]) => {
              calls += 1;
              messages.forEach(handle);
            },
          }
        : {}),
    });
    if (!BACKLOG) requests.clear();
    const cpu0 = BACKLOG ? cpuBacklog : cpuUsage();
    const started = Date.now();
    const exited = backlog === undefined ? startProducer() : Promise.resolve(backlog);
    const deadline = Date.now() + SECONDS * 1000 + 30_000;
    while (handled < TOTAL && Date.now() < deadline) await delay(20);
    await delay(400);
    const cpu = cpuUsage(cpu0);
    await sub.stop();
    const code = await exited;
    latencies.sort((a, b) => a - b);
    const pct = (q: number): number => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? Number.NaN;
    const perMessage = [...requests].sort((a, b) => b[1] - a[1]).map(([api, n]) => `${api} ${(n / TOTAL).toFixed(3)}`).join(', ');
    process.stdout.write(
      `bus-consume: ${TOTAL} messages ${BACKLOG ? 'as a backlog' : `at ${RATE}/s`}, ${PARTITIONS} partitions, ${BATCH ? 'batchHandler' : 'handler'}; handled ${handled} in ${((Date.now() - started) / 1000).toFixed(1)} s ` +
        `(producer exit ${code}); ${(handled / Math.max(1, calls)).toFixed(1)} messages per handler call\n` +
        `  consumer CPU per message ${((cpu.user + cpu.system) / 1000 / TOTAL).toFixed(3)} ms; consumer requests per message: ${perMessage}\n` +
        `  publish -> handler p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms; load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}\n`,
    );
  } finally {
    await bus.close();
    const admin = new Kafka({ clientId: 'bus-consume-cleanup', brokers: BROKERS, logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin.disconnect();
  }
}

const role = process.env.BUS_CONSUME_ROLE === 'produce' ? produce(process.env.BUS_CONSUME_TOPIC ?? '') : consume();
role.catch((error: unknown) => {
  process.stderr.write(`bus-consume failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});

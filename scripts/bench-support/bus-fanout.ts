/**
 * Broker requests, CPU and latency per message of the Kafka event bus alone, without the services: one
 * KafkaEventBus publishes at a fixed rate to a new topic that GROUPS consumer groups read (posts.events has
 * 4 per post in the distributed runtime: outgoing-dispatch, incoming-hooks-reactions, incoming-hooks-stored-*,
 * realtime-*). Prints the requests per message by Kafka API (kafkajs REQUEST events), this process's CPU
 * per message (producer and every consumer), the broker's (the java process running kafka.Kafka; on a
 * shared broker it includes everyone's traffic) and publish -> handler latency. Steadier than the HTTP bench
 * for an A/B of the adapter's settings; on a loaded box alternate runs and compare several.
 * BUS_BATCH=1 subscribes the groups with a `batchHandler` (the same work per message) besides the handler:
 * A/B of the consumer's per-message cost. The topic and groups get KAFKA_NAMESPACE as a prefix when it is set.
 *
 *   set -a; . deploy/local/.env; set +a
 *   BUS_RATE=400 BUS_SECONDS=8 BUS_GROUPS=4 BUS_KEYS=1 BUS_LINGER_MS=5 node --conditions=source --import tsx scripts/bench-support/bus-fanout.ts
 *
 * Loopback brokers only (KAFKA_BROKERS); the topic and groups are named bus-fanout.<pid> and the topic is
 * deleted afterwards. Bounded: BUS_RATE x BUS_SECONDS messages (at most 20,000).
 */
import { cpuUsage } from 'node:process';
import { readFileSync, readdirSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { Kafka, logLevel } from 'kafkajs';
import type { BusMessage } from '@switchyard/event-bus';
import { KafkaEventBus, type KafkaRequestInfo } from '@switchyard/event-bus-kafka';

const RATE = Number(process.env.BUS_RATE ?? 400);
const SECONDS = Number(process.env.BUS_SECONDS ?? 8);
const GROUPS = Number(process.env.BUS_GROUPS ?? 4);
const KEYS = Number(process.env.BUS_KEYS ?? 1);
const LINGER_MS = Number(process.env.BUS_LINGER_MS ?? 5);
const COMMIT_INTERVAL_MS = Number(process.env.BUS_COMMIT_INTERVAL_MS ?? 250);
const BATCH = process.env.BUS_BATCH === '1';
const BROKERS = (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',').map((b) => b.trim());

/** CPU ms (user + system) of the process whose command line runs kafka.Kafka, if it is on this machine. */
function brokerCpuMs(): number | undefined {
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('kafka.Kafka')) continue;
      const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
    } catch {
      // the process ended meanwhile
    }
  }
  return undefined;
}

async function main(): Promise<void> {
  if (!BROKERS.every((b) => /^(127\.0\.0\.1|localhost|\[::1\]):\d+$/.test(b))) throw new Error(`loopback brokers only, got ${BROKERS.join(',')}`);
  const total = Math.min(20_000, Math.round(RATE * SECONDS));
  const requests = new Map<string, number>();
  let counting = false;
  const onRequest = (r: KafkaRequestInfo): void => {
    if (counting) requests.set(r.api, (requests.get(r.api) ?? 0) + 1);
  };
  const bus = new KafkaEventBus({ brokers: BROKERS, clientId: 'bus-fanout', fetchLingerMs: LINGER_MS, commitIntervalMs: COMMIT_INTERVAL_MS, onRequest });
  const topic = `${process.env.KAFKA_NAMESPACE ?? ''}bus-fanout.${process.pid}`;
  const latencies: number[] = [];
  let handled = 0;
  try {
    await bus.ensureTopics([{ topic, partitions: 6 }]);
    const subscriptions = [];
    const handle = (m: BusMessage): void => {
      latencies.push(Date.now() - (m.value as { at: number }).at);
      handled += 1;
    };
    for (let g = 0; g < GROUPS; g += 1) {
      subscriptions.push(
        await bus.subscribe({
          groupId: `${topic}.g${g}`,
          topics: [topic],
          startAt: 'latest',
          handler: async (m) => handle(m),
          ...(BATCH ? { batchHandler: async (messages: readonly BusMessage[]) => messages.forEach(handle) } : {}),
        }),
      );
    }
    counting = true;
    const cpu0 = cpuUsage();
    const broker0 = brokerCpuMs();
    const started = Date.now();
    const publishes: Promise<void>[] = [];
    for (let i = 0; i < total; i += 1) {
      const wait = started + (i * 1000) / RATE - Date.now();
      if (wait > 1) await delay(wait);
      publishes.push(bus.publish(topic, [{ key: `k${i % KEYS}`, value: { at: Date.now(), i } }]));
    }
    await Promise.all(publishes);
    const deadline = Date.now() + 30_000;
    while (handled < total * GROUPS && Date.now() < deadline) await delay(20);
    // Lets the last timed commits go out.
    await delay(COMMIT_INTERVAL_MS + 100);
    const cpu = cpuUsage(cpu0);
    const broker1 = brokerCpuMs();
    counting = false;
    await Promise.all(subscriptions.map((s) => s.stop()));
    latencies.sort((a, b) => a - b);
    const pct = (q: number): number => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? Number.NaN;
    const perMessage = [...requests].sort((a, b) => b[1] - a[1]).map(([api, n]) => `${api} ${(n / total).toFixed(2)}`).join(', ');
    const brokerMs = broker0 !== undefined && broker1 !== undefined ? `${((broker1 - broker0) / total).toFixed(3)} ms` : 'n/a';
    process.stdout.write(
      `bus-fanout: ${total} messages at ${RATE}/s, ${GROUPS} groups${BATCH ? ' (batch handler)' : ''}, ${KEYS} key(s), linger ${LINGER_MS} ms, commit interval ${COMMIT_INTERVAL_MS} ms; ` +
        `handled ${handled}/${total * GROUPS} in ${((Date.now() - started) / 1000).toFixed(1)} s\n` +
        `  broker requests per message: ${perMessage}\n` +
        `  CPU per message: this process ${((cpu.user + cpu.system) / 1000 / total).toFixed(3)} ms, broker ${brokerMs}; ` +
        `publish -> handler p50 ${pct(0.5)} ms, p90 ${pct(0.9)} ms, p99 ${pct(0.99)} ms; load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}\n`,
    );
  } finally {
    await bus.close();
    const admin = new Kafka({ clientId: 'bus-fanout-cleanup', brokers: BROKERS, logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin.disconnect();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bus-fanout failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});

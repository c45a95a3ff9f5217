/**
 * Event cursors (docs/event-stream.md), in process, no I/O: a bot offline while 100,000 events pass (posts in
 * 100 channels, the bot a member of 10 of them: 10,000 it may see) catches up from its cursor in batches of
 * 1,000 (GET /api/v4/events' work without HTTP); and what the cursor adds to a live delivery (one event to
 * 100 sockets, with and without cursors). Membership answers are cached, as on a warm replica.
 *
 * What resuming adds per live event is measured twice: over real sockets (the issue's figure: realtime's own
 * process, its CPU per live event with and without cursors for the same traffic, 100 WebSockets through the
 * upgrade proxy; BENCH_SOCKET_PAIRS pairs, each pair's two runs at the same time) and in process on null sockets (the delivery loop alone,
 * without framing or writing: the cursor's share of that smaller part).
 */
import { envelope, TOPIC_PARTITIONS, Topics } from '@switchyard/contracts';
import type { BusMessage } from '@switchyard/event-bus';
import { keySet } from '@switchyard/http-kit';
import { createSilentLogger } from '@switchyard/logger';
import { MemoryDirectory } from '../../services/realtime/src/adapters/memory/directory.memory';
import type { SocketPort } from '../../services/realtime/src/domain/connection';
import { Hub } from '../../services/realtime/src/domain/hub';
import { MembershipCache } from '../../services/realtime/src/domain/membership-cache';
import { CursorCodec } from '../../services/realtime/src/domain/stream/cursor';
import { EventCursors } from '../../services/realtime/src/domain/stream/event-cursors';
import { EventStream } from '../../services/realtime/src/domain/stream/event-stream';
import { LongPolls } from '../../services/realtime/src/domain/stream/long-polls';
import { CONSUMED_TOPICS, eventsConsumer } from '../../services/realtime/src/entry-points/kafka/events.consumer';
import { embeddedHistoryCatchUp, kafkaHistoryCatchUp } from '../bench-support/event-history';
import { idleLongPolls } from '../bench-support/long-polls';
import { fanOutCpu } from '../bench-support/realtime-fanout';

const EVENTS = 100_000;
/** Runs with and without cursors, alternated, for the live cost (BENCH_LIVE_PAIRS). */
const LIVE_PAIRS = Number(process.env.BENCH_LIVE_PAIRS ?? 7);
/** Pairs of runs over real sockets, with and without cursors at the same time (BENCH_SOCKET_PAIRS; 0 = skip). */
const SOCKET_PAIRS = Number(process.env.BENCH_SOCKET_PAIRS ?? 5);
/**
 * The live traffic over sockets: posts per second to one channel of 100 members (each with a socket), for a few
 * seconds, on a replica that handled 20,000 posts before (with cursors its stream holds them: EVENT_BUFFER_RECORDS).
 */
const SOCKET_TRAFFIC = { members: 100, prefill: 20_000, rate: Number(process.env.BENCH_SOCKET_RATE ?? 50), seconds: Number(process.env.BENCH_SOCKET_SECONDS ?? 6) };
const CHANNELS = 100;
const BOT_CHANNELS = 10;
const id = (prefix: string, n: number): string => `${prefix}${String(n)}`.padEnd(26, 'x');

/** A socket that only counts what it is given. */
class NullSocket implements SocketPort {
  public frames = 0;
  public readonly backlog = 0;
  public sendEvent(): void {
    this.frames += 1;
  }
  public send(): void {
    this.frames += 1;
  }
  public close(): void {}
  public terminate(): void {}
}

/**
 * The catch-up world keeps every record (an hour in memory); the live one is a replica as deployed: the
 * topics' partition counts, EVENT_BUFFER_RECORDS (20,000), EVENT_BUFFER_BYTES (16 MiB) and a day's age bound, the reference's send queue
 * (256) and replay buffer (128).
 */
function world(withCursors: boolean, live = false) {
  const clock = { now: () => Date.now() };
  const directory = new MemoryDirectory();
  const membership = new MembershipCache({ source: directory, clock, ttlMs: 3_600_000, maxChannels: 10_000, maxTeamEntries: 10_000 });
  const stream = new EventStream(CONSUMED_TOPICS, live ? { clock, maxRecords: 20_000, maxBytes: 16_777_216, maxAgeMs: () => 24 * 3_600_000 } : { clock, maxRecords: EVENTS + 1000, maxAgeMs: 0 });
  stream.start(CONSUMED_TOPICS.flatMap((topic) => Array.from({ length: live ? TOPIC_PARTITIONS[topic] : 1 }, (_, partition) => ({ topic, partition, offset: '0' }))));
  const cursors = new EventCursors(new CursorCodec(keySet('bench-secret-of-at-least-32-characters')), stream, { membership, users: directory });
  const limits = live ? { sendQueue: 256, replayBuffer: 128 } : { sendQueue: 1_000_000, replayBuffer: 16 };
  const hub = new Hub({ membership, clock, limits, reconnectWindowMs: 60_000, defaultServerVersion: 'v', ...(withCursors ? { cursors } : {}) });
  const handler = eventsConsumer({ hub, membership, users: directory, logger: createSilentLogger(), maxAttempts: 1, ...(withCursors ? { cursors } : {}) });
  return { directory, membership, stream, cursors, hub, handler };
}

const posted = (n: number, channel: number, time: number): unknown => {
  const channelId = id('c', channel);
  const post = { id: id('p', n), create_at: time, update_at: time, edit_at: 0, delete_at: 0, is_pinned: false, user_id: id('u', 0), channel_id: channelId, root_id: '', original_id: '', message: `post ${n}`, type: '', props: {}, hashtags: '', file_ids: [], pending_post_id: '', reply_count: 0, last_reply_at: 0, participants: null };
  const channelObject = { id: channelId, team_id: 't', team_name: 'tn', type: 'O', name: `c${channel}`, display_name: `C${channel}`, creator_id: id('u', 0), delete_at: 0 };
  return { ...envelope('post.created', { post, channel: channelObject, team: { id: 't', name: 'tn' }, author: { id: id('u', 0), username: 'u0', is_bot: false }, source: 'api', from_webhook: false, is_system: false }), time };
};

/** A message as both buses hand it: its value and the JSON text it was parsed from (kept by the stream: BusMessage.json). */
const message = (offset: number, value: unknown, json = JSON.stringify(value)): BusMessage => ({ topic: Topics.postsEvents, partition: 0, offset: String(offset), key: 'k', value, json, headers: {}, attempt: 1 });

export async function catchUp(): Promise<{ ms: number; events: number }> {
  const w = world(true);
  const bot = id('b', 0);
  for (let c = 0; c < CHANNELS; c += 1) {
    w.directory.addChannelMember(id('c', c), id('u', 0));
    if (c < BOT_CHANNELS) w.directory.addChannelMember(id('c', c), bot);
  }
  const from = w.stream.position();
  const t0 = Date.now() - 3_600_000;
  // Nobody connected: the consumer records what passes (as while the bot is offline).
  for (let n = 0; n < EVENTS; n += 1) await w.handler(message(n, posted(n, n % CHANNELS, t0 + Math.floor((n * 3_600_000) / EVENTS))));
  const viewer = { userId: bot, isAdmin: false, username: 'bot' };
  const started = process.hrtime.bigint();
  let events = 0;
  let position = from;
  for (;;) {
    const batch = await w.cursors.batch(viewer, position, 1000);
    events += batch.events.length;
    const checked = w.cursors.check(batch.cursor, bot);
    if (!checked.position) throw new Error(`cursor ${checked.status}`);
    position = checked.position;
    if (batch.events.length === 0 && batch.more !== true) break;
  }
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, events };
}

/** CPU (user + system, GC included) of one delivery of a live event to 100 sockets, µs. */
async function liveUsPerDelivery(withCursors: boolean): Promise<number> {
  const w = world(withCursors, true);
  const sockets: NullSocket[] = [];
  for (let u = 0; u < 100; u += 1) {
    w.directory.addChannelMember(id('c', 0), id('u', u));
    const socket = new NullSocket();
    sockets.push(socket);
    w.hub.open(socket, { session: { userId: id('u', u), sessionId: `s${u}`, roles: 'system_user', isBot: false, expiresAt: 0 }, connectionId: '', sequenceNumber: 0 });
  }
  const rounds = 3000;
  const value = posted(0, 0, 1);
  const json = JSON.stringify(value);
  for (let n = 0; n < 500; n += 1) await w.handler(message(n, value, json));
  const started = process.cpuUsage();
  for (let n = 500; n < 500 + rounds; n += 1) await w.handler(message(n, value, json));
  const used = process.cpuUsage(started);
  return (used.user + used.system) / (rounds * sockets.length);
}

/** Records held by the busy-stream figure (EVENT_BUFFER_RECORDS' default), and records handled while polls wait. */
const HELD = 20_000;
const BUSY_RECORDS = 2_000;

/**
 * CPU (µs) per record handled on a replica holding 20,000 records, with `waiting` long-polls waiting for
 * events of a channel none of these records are in (bots of another channel), a socket in the busy channel
 * (its members read as deployed). Each poll looking at the whole stream per record (the cost before) would
 * make it grow with waiters × records held; looking only at what may be its own, it stays flat.
 */
export async function busyStreamUsPerRecord(waiting: number): Promise<number> {
  const w = world(true, true);
  w.directory.addChannelMember(id('c', 1), id('u', 0));
  w.hub.open(new NullSocket(), { session: { userId: id('u', 0), sessionId: 's0', roles: 'system_user', isBot: false, expiresAt: 0 }, connectionId: '', sequenceNumber: 0 });
  // Each post happened a few ms before it is handled (the bus's latency).
  for (let n = 0; n < HELD; n += 1) await w.handler(message(n, posted(n, 1, Date.now() - 5)));
  const polls = new LongPolls(w.cursors, w.membership, { maxWaiting: 100_000 });
  const leaves: (() => void)[] = [];
  const from = w.stream.position();
  const answered: Promise<unknown>[] = [];
  for (let i = 0; i < waiting; i += 1) answered.push(polls.poll({ userId: id('b', i), isAdmin: false, username: `b${i}` }, from, 100, 600_000, (leave) => leaves.push(leave)));
  // Made before the clock starts: the producer's work (its value and JSON text), not this replica's.
  const busy = Array.from({ length: BUSY_RECORDS }, (_, i) => message(HELD + i, posted(HELD + i, 1, Date.now() - 5)));
  const started = process.cpuUsage();
  for (const m of busy) await w.handler(m);
  // The polls' looks (after their settle time) are part of the cost.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const used = process.cpuUsage(started);
  if (polls.waiting !== waiting) throw new Error(`${waiting - polls.waiting} polls were answered: none of the records was theirs`);
  for (const leave of leaves) leave();
  await Promise.all(answered);
  return (used.user + used.system) / BUSY_RECORDS;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

/** Without and with cursors, alternated (A B A B ...) so that both see the same box; the medians. */
export async function liveCost(pairs: number): Promise<{ liveUs: number; liveCursorUs: number }> {
  const without: number[] = [];
  const withCursors: number[] = [];
  for (let i = 0; i < pairs; i += 1) {
    without.push(await liveUsPerDelivery(false));
    withCursors.push(await liveUsPerDelivery(true));
  }
  return { liveUs: median(without), liveCursorUs: median(withCursors) };
}

/**
 * realtime's CPU per live event over real sockets without and with cursors (the same traffic), the two runs
 * at the same time (each its own realtime and upgrade proxy; the sockets in this process), `pairs` times: each
 * pair sees the same box, so the load that comes and goes on a shared box moves both (run one after the other,
 * runs without cursors alone varied by ±20 % at load 10-15). The medians, the median of the pairs' differences,
 * and the gateway's (the upgrade proxy: the cursor's bytes pass through it).
 */
async function socketCost(pairs: number): Promise<{ withoutUs: number; withUs: number; pairedPct: number; pairsPct: number[]; gatewayWithoutUs: number; gatewayWithUs: number }> {
  const runs = { without: [] as number[], with: [] as number[], pct: [] as number[], gatewayWithout: [] as number[], gatewayWith: [] as number[] };
  for (let i = 0; i < pairs; i += 1) {
    const [without, withCursors] = await Promise.all([fanOutCpu({ ...SOCKET_TRAFFIC, cursors: false }), fanOutCpu({ ...SOCKET_TRAFFIC, cursors: true })]);
    for (const [f, cursors] of [[without, false], [withCursors, true]] as const) {
      if (f.frames < f.expected * 0.99 || f.cursorFrames !== (cursors ? f.frames : 0)) throw new Error(`live over sockets: ${f.frames}/${f.expected} frames, ${f.cursorFrames} with a cursor (cursors ${cursors ? 'on' : 'off'})`);
    }
    // Per live event: per frame times the receivers of each event.
    runs.without.push(without.realtimeUs * SOCKET_TRAFFIC.members);
    runs.with.push(withCursors.realtimeUs * SOCKET_TRAFFIC.members);
    runs.pct.push(((withCursors.realtimeUs - without.realtimeUs) / without.realtimeUs) * 100);
    runs.gatewayWithout.push(without.gatewayUs * SOCKET_TRAFFIC.members);
    runs.gatewayWith.push(withCursors.gatewayUs * SOCKET_TRAFFIC.members);
  }
  return { withoutUs: median(runs.without), withUs: median(runs.with), pairedPct: median(runs.pct), pairsPct: runs.pct, gatewayWithoutUs: median(runs.gatewayWithout), gatewayWithUs: median(runs.gatewayWith) };
}

export async function run(): Promise<{ catchUpMs: number; liveUs: number; liveCursorUs: number; embeddedLogCatchUpMs: number; kafkaLogCatchUpMs?: number; idlePollsMb: number; busyUsPerRecord: number; busyWaitingUsPerRecord: number; socketLiveUs?: number; socketLiveCursorUs?: number; socketLiveCursorPairedPct?: number }> {
  const { ms, events } = await catchUp();
  process.stdout.write(`   catch-up: ${EVENTS.toLocaleString('en')} events passed while offline (1 h), ${events.toLocaleString('en')} for the bot: ${ms.toFixed(0)} ms in batches of 1,000\n`);
  const embedded = await embeddedHistoryCatchUp();
  process.stdout.write(`   catch-up from the log on a replica that just started, embedded (SQLite event history): ${embedded.events.toLocaleString('en')} events in ${embedded.ms.toFixed(0)} ms (${embedded.cpuMs.toFixed(0)} ms CPU)\n`);
  const kafka = await kafkaHistoryCatchUp();
  if (typeof kafka === 'string') process.stdout.write(`   catch-up from the log, distributed (Kafka): skipped (${kafka})\n`);
  else process.stdout.write(`   catch-up from the log on a replica that just started, distributed (Kafka): ${kafka.events.toLocaleString('en')} events in ${kafka.ms.toFixed(0)} ms (${kafka.cpuMs.toFixed(0)} ms CPU in this process)\n`);
  const polls = await idleLongPolls(1000);
  process.stdout.write(
    `   1,000 idle long-polls (wait=20) on the embedded runtime: RSS ${polls.baseMb} -> ${polls.waitingMb} MB (+${polls.waitingMb - polls.baseMb}; peak ${polls.peakMb}); answered ${JSON.stringify(polls.statuses)} after ${(polls.minAnswerMs / 1000).toFixed(1)}-${(polls.maxAnswerMs / 1000).toFixed(1)} s (past the wait: median ${polls.lateMs.p50} ms, p99 ${polls.lateMs.p99} ms); runtime CPU ${(polls.serverCpuMs / polls.count).toFixed(2)} ms per poll\n`,
  );
  const sockets = SOCKET_PAIRS > 0 ? await socketCost(SOCKET_PAIRS) : undefined;
  if (sockets) {
    const pct = (a: number, b: number): string => (((b - a) / a) * 100).toFixed(1);
    process.stdout.write(
      `   live over sockets, ${SOCKET_TRAFFIC.members} receivers, ${SOCKET_TRAFFIC.rate} events/s: realtime ${sockets.withoutUs.toFixed(1)} µs CPU per live event without cursors, ${sockets.withUs.toFixed(1)} with (${pct(sockets.withoutUs, sockets.withUs)} %; ${sockets.pairedPct.toFixed(1)} % the median of the pairs' differences: ${sockets.pairsPct.map((p) => p.toFixed(1)).join(', ')}); ` +
        `the upgrade proxy ${sockets.gatewayWithoutUs.toFixed(1)} -> ${sockets.gatewayWithUs.toFixed(1)} µs (${pct(sockets.gatewayWithoutUs, sockets.gatewayWithUs)} %); medians of ${SOCKET_PAIRS} pairs run at the same time\n`,
    );
  }
  const { liveUs, liveCursorUs } = await liveCost(LIVE_PAIRS);
  process.stdout.write(`   live in process (delivery loop only, null sockets), 100 receivers: ${liveUs.toFixed(3)} µs CPU per delivery without cursors, ${liveCursorUs.toFixed(3)} with (${(((liveCursorUs - liveUs) / liveUs) * 100).toFixed(1)} %; medians of ${LIVE_PAIRS} alternated runs)\n`);
  const busyUsPerRecord = await busyStreamUsPerRecord(0);
  const busyWaitingUsPerRecord = await busyStreamUsPerRecord(1000);
  process.stdout.write(`   busy stream (20,000 records held): ${busyUsPerRecord.toFixed(1)} µs CPU per record with no long-poll waiting, ${busyWaitingUsPerRecord.toFixed(1)} with 1,000 waiting for other channels\n`);
  return {
    catchUpMs: ms,
    liveUs,
    liveCursorUs,
    embeddedLogCatchUpMs: embedded.ms,
    idlePollsMb: polls.waitingMb - polls.baseMb,
    busyUsPerRecord,
    busyWaitingUsPerRecord,
    ...(sockets ? { socketLiveUs: sockets.withoutUs, socketLiveCursorUs: sockets.withUs, socketLiveCursorPairedPct: sockets.pairedPct } : {}),
    ...(typeof kafka === 'string' ? {} : { kafkaLogCatchUpMs: kafka.ms }),
  };
}

if (require.main === module) {
  // The live cost alone (profiling, A/B): BENCH_LIVE_PAIRS pairs.
  void liveCost(LIVE_PAIRS).then(({ liveUs, liveCursorUs }) => process.stdout.write(`live: ${liveUs.toFixed(3)} µs without, ${liveCursorUs.toFixed(3)} with (${(((liveCursorUs - liveUs) / liveUs) * 100).toFixed(1)} %)\n`));
}

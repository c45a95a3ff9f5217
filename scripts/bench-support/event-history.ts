/**
 * Event cursors resumed from the log (not from a replica's memory): a bot offline for an hour while 100,000
 * events passed (posts in 100 channels, the bot a member of 10: 10,000 it may see) catches up in batches of
 * 1,000 on a replica that just started (it holds none of them, so every record is read from the log):
 * embedded, from the SQLite journal's event history; distributed, from Kafka (loopback brokers only; topics
 * `<prefix>.<topic>` deleted afterwards). Only the catch-up is timed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka } from 'kafkajs';
import { envelope, Topics } from '@switchyard/contracts';
import { MemoryEventBus, type EventBus } from '@switchyard/event-bus';
import { KafkaEventBus } from '@switchyard/event-bus-kafka';
import { keySet } from '@switchyard/http-kit';
import { NamespacedEventBus } from '@switchyard/service-runtime';
import { openStore, SqliteEventJournal } from '@switchyard/sqlite-kit';
import { MemoryDirectory } from '../../services/realtime/src/adapters/memory/directory.memory';
import { MembershipCache } from '../../services/realtime/src/domain/membership-cache';
import { CursorCodec } from '../../services/realtime/src/domain/stream/cursor';
import { EventCursors } from '../../services/realtime/src/domain/stream/event-cursors';
import { EventStream } from '../../services/realtime/src/domain/stream/event-stream';
import { CONSUMED_TOPICS } from '../../services/realtime/src/entry-points/kafka/events.consumer';
import { serverEnv } from './distributed';

const EVENTS = 100_000;
const CHANNELS = 100;
const BOT_CHANNELS = 10;
const id = (prefix: string, n: number): string => `${prefix}${String(n)}`.padEnd(26, 'x');

const posted = (n: number, channel: number, time: number): unknown => {
  const channelId = id('c', channel);
  const post = { id: id('p', n), create_at: time, update_at: time, edit_at: 0, delete_at: 0, is_pinned: false, user_id: id('u', 0), channel_id: channelId, root_id: '', original_id: '', message: `post ${n}`, type: '', props: {}, hashtags: '', file_ids: [], pending_post_id: '', reply_count: 0, last_reply_at: 0, participants: null };
  const channelObject = { id: channelId, team_id: 't', team_name: 'tn', type: 'O', name: `c${channel}`, display_name: `C${channel}`, creator_id: id('u', 0), delete_at: 0 };
  return { ...envelope('post.created', { post, channel: channelObject, team: { id: 't', name: 'tn' }, author: { id: id('u', 0), username: 'u0', is_bot: false }, source: 'api', from_webhook: false, is_system: false }), time };
};

/** Publishes the hour (in chunks of 1,000 through `publish`), then catches the bot up on a fresh replica. */
async function catchUp(bus: EventBus, publish: (messages: { key: string; value: unknown }[]) => Promise<void>): Promise<{ ms: number; cpuMs: number; events: number; published: number }> {
  const ends = bus.endOffsets as NonNullable<EventBus['endOffsets']>;
  const directory = new MemoryDirectory();
  const bot = id('b', 0);
  for (let c = 0; c < CHANNELS; c += 1) {
    directory.addChannelMember(id('c', c), id('u', 0));
    if (c < BOT_CHANNELS) directory.addChannelMember(id('c', c), bot);
  }
  const clock = { now: () => Date.now() };
  const codec = new CursorCodec(keySet('bench-secret-of-at-least-32-characters'));
  const replica = (start: Awaited<ReturnType<typeof ends>>) => {
    const stream = new EventStream(CONSUMED_TOPICS, { clock, maxRecords: 20_000, maxAgeMs: 24 * 3_600_000 });
    stream.start(start);
    const membership = new MembershipCache({ source: directory, clock, ttlMs: 3_600_000, maxChannels: 10_000, maxTeamEntries: 10_000 });
    return new EventCursors(codec, stream, { membership, users: directory }, (ranges, max, options) => (bus.readLog as NonNullable<EventBus['readLog']>).call(bus, ranges, max, options));
  };
  const before = replica(await ends.call(bus, CONSUMED_TOPICS));
  const cursor = before.current(bot);
  const t0 = Date.now() - 3_600_000;
  for (let n = 0; n < EVENTS; n += 1000) {
    await publish(Array.from({ length: 1000 }, (_, i) => ({ key: id('c', (n + i) % CHANNELS), value: posted(n + i, (n + i) % CHANNELS, t0 + Math.floor(((n + i) * 3_600_000) / EVENTS)) })));
  }
  // A replica that started after the hour: it holds none of it.
  const fresh = replica(await ends.call(bus, CONSUMED_TOPICS));
  const viewer = { userId: bot, isAdmin: false, username: 'bot' };
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  let events = 0;
  let at = cursor;
  for (;;) {
    const checked = fresh.check(at, bot);
    if (!checked.position) throw new Error(`cursor ${checked.status}`);
    const batch = await fresh.batch(viewer, checked.position, 1000);
    events += batch.events.length;
    at = batch.cursor;
    if (batch.events.length === 0 && batch.more !== true) break;
  }
  const used = process.cpuUsage(cpu);
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, cpuMs: (used.user + used.system) / 1000, events, published: EVENTS };
}

export async function embeddedHistoryCatchUp(): Promise<{ ms: number; cpuMs: number; events: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-event-history-'));
  const store = openStore({ dir });
  try {
    const journal = new SqliteEventJournal(store, undefined, { topics: CONSUMED_TOPICS, retentionMs: () => 24 * 3_600_000 });
    const bus = new MemoryEventBus({ journal, partitions: { [Topics.postsEvents]: 6, [Topics.channelsEvents]: 6, [Topics.usersEvents]: 3, [Topics.realtimeEvents]: 6 } });
    // realtime's own group handles everything as it passes (so the bus trims its memory; the history stays).
    const sub = await bus.subscribe({ groupId: 'realtime-bench', topics: [...CONSUMED_TOPICS], startAt: 'latest', handler: async () => undefined });
    const result = await catchUp(bus, async (messages) => {
      // Published inside a store write (as the services do), and committed: the hour is on disk before the
      // catch-up starts (without the flush all 100,000 went into one transaction committed inside it).
      const published = await store.write(() => bus.publish(Topics.postsEvents, messages));
      await published;
      await store.flush();
    });
    await sub.stop();
    await bus.close();
    await journal.flush();
    return result;
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function kafkaHistoryCatchUp(): Promise<{ ms: number; cpuMs: number; events: number } | string> {
  // As the other benches: deploy/local/.env, overridden by the environment.
  const brokers = (serverEnv().KAFKA_BROKERS ?? '').split(',').map((b) => b.trim()).filter(Boolean);
  if (brokers.length === 0) return 'KAFKA_BROKERS not set (deploy/local/.env or the environment)';
  if (!brokers.every((b) => /^(127\.0\.0\.1|localhost|\[::1\]):\d+$/.test(b))) return `loopback brokers only, got ${brokers.join(',')}`;
  const prefix = `bench-ec-${process.pid}.`;
  const kafka = new KafkaEventBus({ brokers, clientId: 'bench-event-history' });
  const bus = new NamespacedEventBus(kafka, prefix);
  try {
    await kafka.ensureTopics(CONSUMED_TOPICS.map((topic) => ({ topic: prefix + topic, partitions: topic === Topics.usersEvents ? 3 : 6 })));
    return await catchUp(bus, (messages) => bus.publish(Topics.postsEvents, messages));
  } finally {
    await kafka.close();
    const admin = new Kafka({ clientId: 'bench-event-history-admin', brokers, logLevel: 0 }).admin();
    await admin.connect();
    await admin.deleteTopics({ topics: CONSUMED_TOPICS.map((t) => prefix + t) }).catch(() => undefined);
    await admin.disconnect();
  }
}

if (require.main === module) {
  // HISTORY=embedded|kafka: one figure alone (profiling).
  const which = process.env.HISTORY ?? 'embedded';
  void (which === 'kafka' ? kafkaHistoryCatchUp() : embeddedHistoryCatchUp()).then((figures) => process.stdout.write(`${which}: ${JSON.stringify(figures)}\n`));
}

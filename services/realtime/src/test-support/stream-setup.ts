import type { BusMessage, LogRange, LogRead, LogReadOptions } from '@switchyard/event-bus';
import { keySet } from '@switchyard/http-kit';
import { createSilentLogger } from '@switchyard/logger';
import { MemoryDirectory } from '../adapters/memory/directory.memory';
import { CONSUMED_TOPICS, eventsConsumer } from '../entry-points/kafka/events.consumer';
import { Hub } from '../domain/hub';
import { MembershipCache } from '../domain/membership-cache';
import { CursorCodec } from '../domain/stream/cursor';
import { EventCursors } from '../domain/stream/event-cursors';
import { EventStream } from '../domain/stream/event-stream';
import type { LogSource } from '../domain/stream/history';
import { ManualClock } from './fakes';

export const testCodec = (): CursorCodec => new CursorCodec(keySet('a-secret-of-at-least-32-characters!!'));

/** The log as a bus keeps it: every message published, readable by range (`from` below `keptFrom` is gone). */
export class ArchiveLog {
  public readonly messages: BusMessage[] = [];
  /** Per `topic#partition`: the first offset still kept. */
  public readonly keptFrom = new Map<string, number>();
  public reads = 0;

  /** Messages returned by reads (skipped ones are not). */
  public returned = 0;

  public readonly source: LogSource = async (ranges: readonly LogRange[], maxMessages: number, options: LogReadOptions = {}): Promise<LogRead> => {
    this.reads += 1;
    const share = Math.max(1, Math.floor(maxMessages / Math.max(1, ranges.length)));
    const scanShare = Math.max(1, Math.floor((options.maxScanned ?? maxMessages) / Math.max(1, ranges.length)));
    const out: BusMessage[] = [];
    const next: { topic: string; partition: number; offset: string }[] = [];
    for (const range of ranges) {
      if (Number(range.from) < (this.keptFrom.get(`${range.topic}#${range.partition}`) ?? 0)) return { messages: [], next: [], gone: true };
      const inRange = this.messages.filter((m) => m.topic === range.topic && m.partition === range.partition && Number(m.offset) >= Number(range.from) && Number(m.offset) < Number(range.to));
      let taken = 0;
      let at = Number(range.from);
      for (const m of inRange) {
        if (taken >= share || Number(m.offset) - Number(range.from) >= scanShare) break;
        at = Number(m.offset) + 1;
        if (options.skip?.(m.topic, m.key)) continue;
        out.push(m);
        taken += 1;
      }
      next.push({ topic: range.topic, partition: range.partition, offset: taken < share && at - Number(range.from) < scanShare ? range.to : String(at) });
    }
    this.returned += out.length;
    return { messages: out, next, gone: false };
  };
}

export interface StreamSetupOptions {
  /** Records each replica holds (default 100). */
  readonly maxRecords?: number;
  /** A log to read what a replica no longer holds (default none: such cursors are expired). */
  readonly log?: ArchiveLog;
}

/** A realtime replica's stream, cursors, hub and consumer over a memory directory; `publish` hands it one message. */
export function streamSetup(options: StreamSetupOptions = {}, shared?: { clock: ManualClock; directory: MemoryDirectory; offsets: Map<string, number> }) {
  const clock = shared?.clock ?? new ManualClock();
  const directory = shared?.directory ?? new MemoryDirectory();
  const offsets = shared?.offsets ?? new Map<string, number>();
  const membership = new MembershipCache({ source: directory, clock, ttlMs: 60_000, maxChannels: 100, maxTeamEntries: 100 });
  const stream = new EventStream(CONSUMED_TOPICS, { clock, maxRecords: options.maxRecords ?? 100, maxAgeMs: options.log ? 3_600_000 : 0 });
  stream.start(CONSUMED_TOPICS.map((topic) => ({ topic, partition: 0, offset: String(offsets.get(topic) ?? 0) })));
  const codec = testCodec();
  const cursors = new EventCursors(codec, stream, { membership, users: directory }, options.log?.source);
  const hub = new Hub({ membership, clock, limits: { sendQueue: 64, replayBuffer: 16 }, reconnectWindowMs: 1000, defaultServerVersion: 'v', cursors });
  const handler = eventsConsumer({ hub, membership, users: directory, logger: createSilentLogger(), maxAttempts: 1, cursors });
  const publish = async (topic: string, value: { time: number }): Promise<void> => {
    clock.time += 10;
    const offset = offsets.get(topic) ?? 0;
    offsets.set(topic, offset + 1);
    // Keyed as the publishers key them (posts.events: the channel id).
    const payload = (value as { payload?: { channel?: { id?: unknown }; channel_id?: unknown } }).payload;
    const key = String(payload?.channel?.id ?? payload?.channel_id ?? 'c1');
    const message: BusMessage = { topic, partition: 0, offset: String(offset), key, value: { ...value, time: clock.time }, headers: {}, attempt: 1 };
    options.log?.messages.push(message);
    await handler(message);
  };
  return { clock, directory, membership, hub, cursors, codec, publish, offsets, stream };
}

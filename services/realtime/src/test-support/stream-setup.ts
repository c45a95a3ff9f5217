import type { BusMessage, LogRange, LogRead } from '@switchyard/event-bus';
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

  public readonly source: LogSource = async (ranges: readonly LogRange[], maxMessages: number): Promise<LogRead> => {
    this.reads += 1;
    const share = Math.max(1, Math.floor(maxMessages / Math.max(1, ranges.length)));
    const out: BusMessage[] = [];
    const next: { topic: string; partition: number; offset: string }[] = [];
    for (const range of ranges) {
      if (Number(range.from) < (this.keptFrom.get(`${range.topic}#${range.partition}`) ?? 0)) return { messages: [], next: [], gone: true };
      const found = this.messages.filter((m) => m.topic === range.topic && m.partition === range.partition && Number(m.offset) >= Number(range.from) && Number(m.offset) < Number(range.to)).slice(0, share);
      out.push(...found);
      const last = found[found.length - 1];
      next.push({ topic: range.topic, partition: range.partition, offset: found.length < share ? range.to : String(Number(last?.offset) + 1) });
    }
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
    const message: BusMessage = { topic, partition: 0, offset: String(offset), key: 'c1', value: { ...value, time: clock.time }, headers: {}, attempt: 1 };
    options.log?.messages.push(message);
    await handler(message);
  };
  return { clock, directory, membership, hub, cursors, codec, publish, offsets, stream };
}

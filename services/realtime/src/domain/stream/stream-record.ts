import { Topics } from '@switchyard/contracts';
import type { BusMessage } from '@switchyard/event-bus';

/** A message of the event stream (handled by this replica, in delivery, or read from the log). */
export interface StreamRecord {
  /** Increases by one per record handled by this replica (waiters ask for "after serial n"); -1 for others. */
  readonly serial: number;
  /** Index of the topic in the stream's topic list. */
  readonly topic: number;
  readonly partition: number;
  readonly offset: number;
  /** When it happened (the envelope's `time`, else when it was handled). */
  readonly time: number;
  /** The message. A kept record parses it at each read (read it once per use, never hold it). */
  readonly message: BusMessage;
  /** posts.events: the post's channel (its events go to that channel's members only); else undefined. */
  readonly channel: string | undefined;
  /** A realtime.events `typing` (never replayed). */
  readonly typing: boolean;
}

/** What a record tells without its value being parsed again: its post's channel, whether it is typing. */
export interface RecordFacts {
  readonly channel: string | undefined;
  readonly typing: boolean;
}

/** The facts of a message's value (as the live consumer reads it). */
export function factsOf(topic: string, value: unknown): RecordFacts {
  const envelope = typeof value === 'object' && value !== null ? (value as { type?: unknown; payload?: unknown }) : undefined;
  if (typeof envelope?.type !== 'string') return { channel: undefined, typing: false };
  if (topic === Topics.realtimeEvents) return { channel: undefined, typing: envelope.type === 'typing' };
  if (topic !== Topics.postsEvents || typeof envelope.payload !== 'object' || envelope.payload === null) return { channel: undefined, typing: false };
  const id = (envelope.payload as { channel?: { id?: unknown } | null }).channel?.id;
  return { channel: typeof id === 'string' ? id : undefined, typing: false };
}

/** Heap of a kept record besides its JSON (the object, its key, the channel id): about, in bytes. */
const RECORD_OVERHEAD = 160;

/**
 * A record this replica keeps for resumes, in its compact form: the message's value as its JSON text (the
 * bus's own, so nothing is serialised on the live path; parsed again when a resume reads it) instead of the
 * parsed object tree and the delivered message (a hook post's event: ~1.9 KB of heap kept this way against
 * ~2.1 KB, measured in a heap snapshot of the distributed realtime), and with a size that is known, so the
 * stream can bound its records by bytes (EVENT_BUFFER_BYTES). Headers and the delivery attempt are not kept
 * (a replay reads neither): the message read back has none and attempt 1.
 */
export class KeptRecord implements StreamRecord {
  private readonly json: string;

  public constructor(
    public readonly serial: number,
    public readonly topic: number,
    public readonly partition: number,
    public readonly offset: number,
    public readonly time: number,
    private readonly topicName: string,
    private readonly key: string,
    /** The value's JSON text when the bus gave it (BusMessage.json), else serialised here from `value`. */
    json: string | undefined,
    value: unknown,
    public readonly channel: string | undefined,
    public readonly typing: boolean,
  ) {
    this.json = json ?? JSON.stringify(value) ?? 'null';
    // A post event's key is its channel id: one string held for both.
    if (channel !== undefined && channel === key) this.channel = key;
  }

  public get message(): BusMessage {
    return { topic: this.topicName, partition: this.partition, offset: String(this.offset), key: this.key, value: JSON.parse(this.json) as unknown, headers: {}, attempt: 1 };
  }

  /** What it holds, about: the characters of its JSON and a fixed part (the record, its key and strings). */
  public get size(): number {
    return this.json.length + RECORD_OVERHEAD;
  }
}

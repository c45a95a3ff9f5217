import { createHash, createHmac, hash } from 'node:crypto';
import { acceptedKeys, matchesAnyKey, signingKey, type Keys } from '@switchyard/http-kit';

/**
 * A position in the event stream: for each consumed topic (in a fixed order), the next offset of each of its
 * partitions ("everything before these offsets"), and when it was taken (ms).
 */
export interface StreamPosition {
  readonly time: number;
  readonly offsets: readonly (readonly number[])[];
}

export type DecodedCursor = { readonly ok: true; readonly position: StreamPosition } | { readonly ok: false };

/** Cursors made before ADR 0039: the position tag is an HMAC of `pos` and the base64url text (still accepted). */
const VERSION_1 = 1;
/** The position tag is a truncated keyed SHA-256 of the position's bytes (ADR 0039). */
const VERSION = 2;
/** Longest cursor accepted (a deployment has a few dozen partitions: far below). */
const MAX_CURSOR_CHARS = 4096;
const TAG_BYTES = 12;
/** TAG_BYTES as base64url (a multiple of 3 bytes: no padding). */
const TAG_CHARS = (TAG_BYTES / 3) * 4;
const DOT = 0x2e;
const BASE64URL = Buffer.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_', 'latin1');

/** `bytes[from, to)` as unpadded base64url written at `at` of `out` (what `toString('base64url')` gives); returns the end. */
function base64url(bytes: Buffer, from: number, to: number, out: Buffer, at: number): number {
  let i = from;
  let o = at;
  for (; i + 2 < to; i += 3) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
    out[o] = BASE64URL[n >>> 18] as number;
    out[o + 1] = BASE64URL[(n >>> 12) & 63] as number;
    out[o + 2] = BASE64URL[(n >>> 6) & 63] as number;
    out[o + 3] = BASE64URL[n & 63] as number;
    o += 4;
  }
  const left = to - i;
  if (left === 1) {
    const n = (bytes[i] as number) << 16;
    out[o] = BASE64URL[n >>> 18] as number;
    out[o + 1] = BASE64URL[(n >>> 12) & 63] as number;
    o += 2;
  } else if (left === 2) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8);
    out[o] = BASE64URL[n >>> 18] as number;
    out[o + 1] = BASE64URL[(n >>> 12) & 63] as number;
    out[o + 2] = BASE64URL[(n >>> 6) & 63] as number;
    o += 3;
  }
  return o;
}

function readVarint(bytes: Buffer, at: { i: number }): number | undefined {
  let value = 0;
  let scale = 1;
  for (let n = 0; n < 8; n += 1) {
    const byte = bytes[at.i];
    if (byte === undefined) return undefined;
    at.i += 1;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return Number.isSafeInteger(value) ? value : undefined;
    scale *= 0x80;
  }
  return undefined;
}

/** Bytes of the derived key before the position in a tag's input (a SHA-256 output). */
const KEY_BYTES = 32;

function writeVarint(out: Buffer, at: number, value: number): number {
  let i = at;
  // Offsets below 2^31 (all but the time): integer shifts, much cheaper than the division below.
  if (value < 0x80000000) {
    let small = value | 0;
    while (small >= 0x80) {
      out[i] = (small & 0x7f) | 0x80;
      small >>>= 7;
      i += 1;
    }
    out[i] = small;
    return i + 1;
  }
  let rest = value;
  while (rest >= 0x80) {
    out[i] = (rest % 0x80) | 0x80;
    rest = Math.floor(rest / 0x80);
    i += 1;
  }
  out[i] = rest;
  return i + 1;
}

/**
 * The position's bytes written at `at` of `out` (version, time, then per topic its partition count and each
 * partition's offset), with `partition` of `topic` at least `next` when given (a live event's position: the
 * stream's offsets and its own record, without copying them). Undefined when `out` is too small.
 */
function writePosition(out: Buffer, at: number, time: number, offsets: readonly (readonly number[])[], topic = -1, partition = -1, next = 0): number | undefined {
  out[at] = VERSION;
  let i = writeVarint(out, at + 1, Math.max(0, Math.floor(time)));
  i = writeVarint(out, i, offsets.length);
  for (let t = 0; t < offsets.length; t += 1) {
    const partitions = offsets[t] as readonly number[];
    if (i + 8 * (partitions.length + 1) > out.length) return undefined;
    i = writeVarint(out, i, partitions.length);
    for (let p = 0; p < partitions.length; p += 1) {
      const offset = t === topic && p === partition ? Math.max(partitions[p] as number, next) : (partitions[p] as number);
      i = writeVarint(out, i, Math.max(0, offset));
    }
  }
  return i;
}

function parsePosition(bytes: Buffer): StreamPosition | undefined {
  const at = { i: 0 };
  if (bytes[0] !== VERSION && bytes[0] !== VERSION_1) return undefined;
  at.i = 1;
  const time = readVarint(bytes, at);
  const topics = readVarint(bytes, at);
  if (time === undefined || topics === undefined || topics > 64) return undefined;
  const offsets: number[][] = [];
  for (let t = 0; t < topics; t += 1) {
    const count = readVarint(bytes, at);
    if (count === undefined || count > 1024) return undefined;
    // Sized at once (pushes would leave spare capacity): a waiting long-poll keeps this position.
    const partitions = new Array<number>(count);
    for (let p = 0; p < count; p += 1) {
      const offset = readVarint(bytes, at);
      if (offset === undefined) return undefined;
      partitions[p] = offset;
    }
    offsets.push(partitions);
  }
  return at.i === bytes.length ? { time, offsets } : undefined;
}

const mac = (key: string, label: string, data: string): string => createHmac('sha256', key).update(label).update(data).digest().subarray(0, TAG_BYTES).toString('base64url');

/** The key of position tags, derived from a secret (never the secret itself). */
const positionKey = (secret: string): Buffer => createHmac('sha256', secret).update('switchyard event cursor position tag v2').digest();

/** A position tag: SHA-256 of the derived key then the position's bytes, truncated to TAG_BYTES (ADR 0039). */
const positionTag = (key: Buffer, bytes: Buffer): string => createHash('sha256').update(key).update(bytes).digest().subarray(0, TAG_BYTES).toString('base64url');

/**
 * Event cursors: `<position>.<position tag>.<user tag>`, each part base64url. The position tag makes a changed
 * or made-up position invalid: a keyed SHA-256 of the position's bytes, truncated to 96 bits (AMAC, ADR 0039:
 * one hash per live event where an HMAC takes two; cursors of version 1, tagged with an HMAC, are still
 * accepted). The user tag (HMAC of the user id) binds the cursor to its user, so another user's cursor is
 * invalid. One tag per event (the position, shared by every receiver) and one per connection (the user), not
 * one per frame. A cursor grants nothing: what it replays is filtered for its user as the live socket is.
 */
export class CursorCodec {
  /** The derived key, then room for a position's bytes: a live event's tag is one hash over the start of it. */
  private readonly signing: Buffer;
  private readonly derived = new Map<string, Buffer>();

  public constructor(private readonly keys: Keys) {
    this.signing = Buffer.alloc(KEY_BYTES + 64 * 1024);
    this.keyOf(signingKey(keys)).copy(this.signing);
  }

  /** The part shared by every receiver of an event at `position`: `<position>.<position tag>.` */
  public head(position: StreamPosition): string {
    return this.headAt(position.time, position.offsets);
  }

  /**
   * `head` of the position `offsets` at `time`, with `partition` of `topic` at least `next` when given (a live
   * event: the stream's offsets as they are, its record's own not handled yet), without copying them.
   */
  public headAt(time: number, offsets: readonly (readonly number[])[], topic?: number, partition?: number, next?: number): string {
    const end = writePosition(this.signing, KEY_BYTES, time, offsets, topic, partition, next);
    if (end === undefined) return this.slowHead(time, offsets, topic, partition, next);
    return `${this.signing.toString('base64url', KEY_BYTES, end)}.${this.tagOfSigning(end)}.`;
  }

  /**
   * `before` then `headAt(...)` as bytes (latin1), built in one buffer: what a live event's frames carry (the
   * hot path: no intermediate strings).
   */
  public headBytes(before: Buffer, time: number, offsets: readonly (readonly number[])[], topic?: number, partition?: number, next?: number): Buffer {
    const end = writePosition(this.signing, KEY_BYTES, time, offsets, topic, partition, next);
    if (end === undefined) return Buffer.from(before.toString('latin1') + this.slowHead(time, offsets, topic, partition, next), 'latin1');
    const length = end - KEY_BYTES;
    const textLength = Math.ceil((length * 4) / 3);
    const out = Buffer.allocUnsafe(before.length + textLength + TAG_CHARS + 2);
    let at = before.copy(out, 0);
    at = base64url(this.signing, KEY_BYTES, end, out, at);
    out[at] = DOT;
    at += 1;
    const tag = this.tagOfSigning(end);
    for (let i = 0; i < TAG_CHARS; i += 1) out[at + i] = tag.charCodeAt(i);
    out[at + TAG_CHARS] = DOT;
    return out;
  }

  /** The position tag of the bytes written in the signing buffer up to `end` (one hash: key then position). */
  private tagOfSigning(end: number): string {
    return hash('sha256', this.signing.subarray(0, end), 'base64url').slice(0, TAG_CHARS);
  }

  /** The user's part, the same for all their cursors. */
  public userTag(userId: string): string {
    return mac(signingKey(this.keys), 'user', userId);
  }

  public encode(position: StreamPosition, userId: string): string {
    return `${this.head(position)}${this.userTag(userId)}`;
  }

  /** The position of a cursor made for `userId` by this deployment; not ok for anything else. */
  public decode(cursor: unknown, userId: string): DecodedCursor {
    if (typeof cursor !== 'string' || cursor.length === 0 || cursor.length > MAX_CURSOR_CHARS) return { ok: false };
    const parts = cursor.split('.');
    if (parts.length !== 3) return { ok: false };
    const [data = '', tag = '', user = ''] = parts;
    if (!/^[A-Za-z0-9_-]+$/.test(data) || acceptedKeys(this.keys).length === 0) return { ok: false };
    const bytes = Buffer.from(data, 'base64url');
    // One text per position: a changed character that decodes to the same bytes is not the cursor that was made.
    if (bytes.toString('base64url') !== data) return { ok: false };
    const signed =
      bytes[0] === VERSION ? matchesAnyKey(this.keys, tag, (key) => positionTag(this.keyOf(key), bytes)) : bytes[0] === VERSION_1 && matchesAnyKey(this.keys, tag, (key) => mac(key, 'pos', data));
    if (!signed) return { ok: false };
    if (!matchesAnyKey(this.keys, user, (key) => mac(key, 'user', userId))) return { ok: false };
    const position = parsePosition(bytes);
    return position ? { ok: true, position } : { ok: false };
  }

  private keyOf(secret: string): Buffer {
    let key = this.derived.get(secret);
    if (!key) {
      key = positionKey(secret);
      this.derived.set(secret, key);
    }
    return key;
  }

  /** `headAt` for a position too large for the signing buffer (never in practice). */
  private slowHead(time: number, offsets: readonly (readonly number[])[], topic = -1, partition = -1, next = 0): string {
    const size = 16 + offsets.reduce((n, p) => n + 8 * (p.length + 1), 0);
    const bytes = Buffer.alloc(size);
    const end = writePosition(bytes, 0, time, offsets, topic, partition, next) as number;
    const position = bytes.subarray(0, end);
    return `${position.toString('base64url')}.${positionTag(this.keyOf(signingKey(this.keys)), position)}.`;
  }
}

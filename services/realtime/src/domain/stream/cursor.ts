import { createHmac } from 'node:crypto';
import { acceptedKeys, matchesAnyKey, signingKey, type Keys } from '@switchyard/http-kit';
import { PreparedHmac } from './prepared-hmac';

/**
 * A position in the event stream: for each consumed topic (in a fixed order), the next offset of each of its
 * partitions ("everything before these offsets"), and when it was taken (ms).
 */
export interface StreamPosition {
  readonly time: number;
  readonly offsets: readonly (readonly number[])[];
}

export type DecodedCursor = { readonly ok: true; readonly position: StreamPosition } | { readonly ok: false };

const VERSION = 1;
/** Longest cursor accepted (a deployment has a few dozen partitions: far below). */
const MAX_CURSOR_CHARS = 4096;
const TAG_BYTES = 12;

function pushVarint(out: number[], value: number): void {
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
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

/** Where positions are encoded (a varint takes at most 8 bytes; MAX_CURSOR_CHARS bounds what is decoded). */
const scratch = Buffer.alloc(64 * 1024);

function writeVarint(at: number, value: number): number {
  let rest = value;
  let i = at;
  while (rest >= 0x80) {
    scratch[i] = (rest % 0x80) | 0x80;
    rest = Math.floor(rest / 0x80);
    i += 1;
  }
  scratch[i] = rest;
  return i + 1;
}

/** The position's bytes as base64url: version, time, then per topic its partition count and each partition's offset. */
function positionData(position: StreamPosition): string {
  let at = 0;
  scratch[at] = VERSION;
  at = writeVarint(at + 1, Math.max(0, Math.floor(position.time)));
  at = writeVarint(at, position.offsets.length);
  for (const partitions of position.offsets) {
    if (at + 8 * (partitions.length + 1) > scratch.length) return positionBytes(position).toString('base64url');
    at = writeVarint(at, partitions.length);
    for (const offset of partitions) at = writeVarint(at, Math.max(0, offset));
  }
  return scratch.toString('base64url', 0, at);
}

/** The same bytes, for positions too large for the scratch buffer (never in practice). */
function positionBytes(position: StreamPosition): Buffer {
  const out: number[] = [VERSION];
  pushVarint(out, Math.max(0, Math.floor(position.time)));
  pushVarint(out, position.offsets.length);
  for (const partitions of position.offsets) {
    pushVarint(out, partitions.length);
    for (const offset of partitions) pushVarint(out, Math.max(0, offset));
  }
  return Buffer.from(out);
}

function parsePosition(bytes: Buffer): StreamPosition | undefined {
  const at = { i: 0 };
  if (bytes[0] !== VERSION) return undefined;
  at.i = 1;
  const time = readVarint(bytes, at);
  const topics = readVarint(bytes, at);
  if (time === undefined || topics === undefined || topics > 64) return undefined;
  const offsets: number[][] = [];
  for (let t = 0; t < topics; t += 1) {
    const count = readVarint(bytes, at);
    if (count === undefined || count > 1024) return undefined;
    const partitions: number[] = [];
    for (let p = 0; p < count; p += 1) {
      const offset = readVarint(bytes, at);
      if (offset === undefined) return undefined;
      partitions.push(offset);
    }
    offsets.push(partitions);
  }
  return at.i === bytes.length ? { time, offsets } : undefined;
}

const mac = (key: string, label: string, data: string): string => createHmac('sha256', key).update(label).update(data).digest().subarray(0, TAG_BYTES).toString('base64url');

/**
 * Event cursors: `<position>.<position tag>.<user tag>`, each part base64url. The position tag (HMAC of the
 * position with the server's secret) makes a changed or made-up position invalid; the user tag (HMAC of the
 * user id) binds the cursor to its user, so another user's cursor is invalid. One HMAC per event (the
 * position, shared by every receiver) and one per connection (the user), not one per frame. A cursor grants
 * nothing: what it replays is filtered for its user as the live socket is.
 */
export class CursorCodec {
  /** The position tag of every live event is made with it (the same HMAC, prepared once). */
  private readonly signer: PreparedHmac;

  public constructor(private readonly keys: Keys) {
    this.signer = new PreparedHmac(signingKey(keys));
  }

  /** The part shared by every receiver of an event at `position`: `<position>.<position tag>.` */
  public head(position: StreamPosition): string {
    const data = positionData(position);
    return `${data}.${this.signer.tag(`pos${data}`, TAG_BYTES) ?? mac(signingKey(this.keys), 'pos', data)}.`;
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
    if (!matchesAnyKey(this.keys, tag, (key) => mac(key, 'pos', data))) return { ok: false };
    if (!matchesAnyKey(this.keys, user, (key) => mac(key, 'user', userId))) return { ok: false };
    const position = parsePosition(Buffer.from(data, 'base64url'));
    return position ? { ok: true, position } : { ok: false };
  }
}

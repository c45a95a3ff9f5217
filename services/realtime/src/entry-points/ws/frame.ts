/**
 * Server → client WebSocket text frames (RFC 6455 §5.2: FIN set, opcode 1, unmasked) written straight into
 * an output buffer, so an event reaches the socket without the `ws` library framing (or copying) it again:
 * the header, the event's shared prefix (encoded once per event) and this connection's `<seq>}`.
 */

const TEXT_FIN = 0x81;

/** Decimal digits of a non-negative integer. */
export function digits(n: number): number {
  let count = 1;
  for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) count += 1;
  return count;
}

/** Bytes of the frame header for a payload of `payload` bytes. */
export function headerLength(payload: number): number {
  if (payload < 126) return 2;
  return payload < 65_536 ? 4 : 10;
}

/** Writes the header at `at`; returns where the payload starts. */
export function writeHeader(out: Buffer, at: number, payload: number): number {
  out[at] = TEXT_FIN;
  if (payload < 126) {
    out[at + 1] = payload;
    return at + 2;
  }
  if (payload < 65_536) {
    out[at + 1] = 126;
    out.writeUInt16BE(payload, at + 2);
    return at + 4;
  }
  out[at + 1] = 127;
  out.writeUInt32BE(Math.floor(payload / 2 ** 32), at + 2);
  out.writeUInt32BE(payload >>> 0, at + 6);
  return at + 10;
}

/**
 * Bytes of the frame of an event: `prefix` (the JSON up to the seq value), `<seq>`, the cursor when there is
 * one (`head`: `, "cursor": "` and the event's shared part; `tail`: the connection's part and `"`), then `}`.
 */
export function eventFrameLength(prefix: Buffer, seq: number, head?: Buffer, tail?: Buffer): number {
  const payload = prefix.length + digits(seq) + 1 + (head && tail ? head.length + tail.length : 0);
  return headerLength(payload) + payload;
}

/** Writes the frame of an event at `at`; returns the offset after it. */
export function writeEventFrame(out: Buffer, at: number, prefix: Buffer, seq: number, head?: Buffer, tail?: Buffer): number {
  const seqDigits = digits(seq);
  const cursor = head && tail ? head.length + tail.length : 0;
  const start = writeHeader(out, at, prefix.length + seqDigits + cursor + 1);
  prefix.copy(out, start);
  let end = start + prefix.length + seqDigits;
  for (let rest = seq, i = end - 1; i >= end - seqDigits; i -= 1, rest = Math.floor(rest / 10)) out[i] = 0x30 + (rest % 10);
  if (head && tail) {
    end += head.copy(out, end);
    end += tail.copy(out, end);
  }
  out[end] = 0x7d; // }
  end += 1;
  return end;
}

/** A whole text frame of `text` (replies). */
export function textFrame(text: string): Buffer {
  const payload = Buffer.byteLength(text, 'utf8');
  const frame = Buffer.allocUnsafe(headerLength(payload) + payload);
  frame.write(text, writeHeader(frame, 0, payload), 'utf8');
  return frame;
}

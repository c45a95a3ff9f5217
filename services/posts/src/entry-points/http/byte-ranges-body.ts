import { randomBytes } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ContentRange } from './byte-ranges';

/**
 * A `multipart/byteranges` answer to several ranges, laid out byte for byte as Go's ServeContent writes it
 * (the reference serves file bytes through it): a boundary of 30 random bytes in hex (mime/multipart's
 * randomBoundary), each part `--boundary` (after the first, preceded by CRLF), its `Content-Range` and
 * `Content-Type` headers (sorted, as Go's multipart writer sorts them), a blank line and the range's bytes;
 * then `CRLF--boundary--CRLF`. The length is known before any byte is read (Go's rangesMIMESize).
 */
export interface ByteRangesLayout {
  readonly boundary: string;
  /** The answer's Content-Type. */
  readonly contentType: string;
  /** The answer's Content-Length. */
  readonly length: number;
  readonly parts: readonly { readonly head: Buffer; readonly range: ContentRange }[];
  readonly closing: Buffer;
}

export function byteRangesLayout(ranges: readonly ContentRange[], partType: string, size: number, boundary = randomBytes(30).toString('hex')): ByteRangesLayout {
  const parts = ranges.map((range, i) => ({
    head: Buffer.from(`${i === 0 ? '' : '\r\n'}--${boundary}\r\nContent-Range: bytes ${range.start}-${range.end}/${size}\r\nContent-Type: ${partType}\r\n\r\n`, 'latin1'),
    range,
  }));
  const closing = Buffer.from(`\r\n--${boundary}--\r\n`, 'latin1');
  const length = parts.reduce((sum, p) => sum + p.head.length + (p.range.end - p.range.start + 1), closing.length);
  return { boundary, contentType: `multipart/byteranges; boundary=${boundary}`, length, parts, closing };
}

/**
 * The body of a layout, streamed: each range is opened when its turn comes (`open`; the first one may be
 * opened already, so a missing object is refused before any header) and read as the client takes it.
 * Destroying the body closes the range being read and opens no other; a range that fails errors the body.
 */
export function byteRangesBody(layout: ByteRangesLayout, open: (range: ContentRange) => Promise<Readable>, first?: Readable): Readable {
  const out = new PassThrough();
  let current = first;
  out.once('close', () => current?.destroy());
  const pump = async (): Promise<void> => {
    for (const [i, part] of layout.parts.entries()) {
      if (out.destroyed) return;
      out.write(part.head);
      const source = i === 0 && first ? first : await open(part.range);
      current = source;
      if (out.destroyed) {
        source.destroy();
        return;
      }
      await pipeline(source, out, { end: false });
    }
    out.end(layout.closing);
  };
  pump().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
}

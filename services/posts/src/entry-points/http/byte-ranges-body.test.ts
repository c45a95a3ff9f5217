import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { byteRangesBody, byteRangesLayout } from './byte-ranges-body';
import type { ContentRange } from './byte-ranges';

const data = randomBytes(200_000);
const opener = (opened: Readable[]) => async (range: ContentRange): Promise<Readable> => {
  const stream = Readable.from([data.subarray(range.start, range.end + 1)]);
  opened.push(stream);
  return stream;
};

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

test('when several ranges are laid out, then the body is byte for byte what Go\'s multipart writer makes, and its length is known first', async () => {
  const boundary = 'b'.repeat(60);
  const layout = byteRangesLayout([{ start: 0, end: 1 }, { start: 5, end: 6 }], 'text/plain', 10, boundary);
  assert.equal(layout.contentType, `multipart/byteranges; boundary=${boundary}`);
  const body = await collect(byteRangesBody(layout, async (r) => Readable.from([Buffer.from('0123456789').subarray(r.start, r.end + 1)])));
  const expected =
    `--${boundary}\r\nContent-Range: bytes 0-1/10\r\nContent-Type: text/plain\r\n\r\n01` +
    `\r\n--${boundary}\r\nContent-Range: bytes 5-6/10\r\nContent-Type: text/plain\r\n\r\n56` +
    `\r\n--${boundary}--\r\n`;
  assert.equal(body.toString('latin1'), expected);
  assert.equal(layout.length, Buffer.byteLength(expected));
});

test('when no boundary is given, then each layout has its own: 30 random bytes in hex, as Go', () => {
  const a = byteRangesLayout([{ start: 0, end: 0 }], 'x/y', 1);
  const b = byteRangesLayout([{ start: 0, end: 0 }], 'x/y', 1);
  assert.match(a.boundary, /^[0-9a-f]{60}$/);
  assert.notEqual(a.boundary, b.boundary);
});

test('when ranges of a large object are streamed, then each part carries its bytes, each range opened in its turn', async () => {
  const ranges = [{ start: 150_000, end: 199_999 }, { start: 0, end: 65_535 }, { start: 70_000, end: 70_000 }];
  const layout = byteRangesLayout(ranges, 'application/octet-stream', data.length);
  const opened: Readable[] = [];
  const open = opener(opened);
  const first = await open(ranges[0] as ContentRange);
  const body = await collect(byteRangesBody(layout, open, first));
  assert.equal(body.length, layout.length);
  assert.equal(opened.length, 3);
  let at = 0;
  for (const [i, part] of layout.parts.entries()) {
    assert.ok(body.subarray(at, at + part.head.length).equals(part.head), `head ${i}`);
    at += part.head.length;
    const bytes = data.subarray(part.range.start, part.range.end + 1);
    assert.ok(body.subarray(at, at + bytes.length).equals(bytes), `bytes ${i}`);
    at += bytes.length;
  }
  assert.ok(body.subarray(at).equals(layout.closing));
});

test('when the body is let go before or while it is read, then the range opened is closed and no other is opened', async () => {
  const ranges = [{ start: 0, end: 99_999 }, { start: 100_000, end: 199_999 }];
  const layout = byteRangesLayout(ranges, 'application/octet-stream', data.length);
  const opened: Readable[] = [];
  const unread = Readable.from([data.subarray(0, 10)]);
  byteRangesBody(layout, opener(opened), unread).destroy();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(unread.destroyed, true);
  const midway = new Readable({ read() {} });
  midway.push(data.subarray(0, 1000));
  const body = byteRangesBody(layout, opener(opened), midway);
  await new Promise<void>((resolve) => body.once('data', () => resolve()));
  body.destroy();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(midway.destroyed, true);
  assert.equal(opened.length, 0);
});

test('when opening a later range fails, then the body errors (the connection is cut, never a clean end)', async () => {
  const layout = byteRangesLayout([{ start: 0, end: 0 }, { start: 1, end: 1 }], 'x/y', 2);
  const body = byteRangesBody(layout, async () => Promise.reject(new Error('object lost')), Readable.from([Buffer.from('a')]));
  await assert.rejects(collect(body), /object lost/);
});

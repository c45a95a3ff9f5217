import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** A real image of the given size and format, made with sharp (a flat colour, so it is small). */
export async function anImage(format: 'png' | 'jpeg' | 'gif', width = 300, height = 200): Promise<Buffer> {
  const base = sharp({ create: { width, height, channels: 3, background: '#3366cc' } });
  return format === 'png' ? base.png().toBuffer() : format === 'jpeg' ? base.jpeg().toBuffer() : base.gif().toBuffer();
}

/**
 * A valid PNG header declaring `width`×`height` with almost no data: what a decompression bomb looks like
 * to a reader that trusts the header.
 */
export function aPngDeclaring(width: number, height: number): Buffer {
  const header = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  // One row's worth of compressed zeros: a reader that decodes before checking the size would inflate far more.
  const idat = deflateSync(Buffer.alloc(width * 3 + 1));
  return Buffer.concat([header, chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** An SVG carrying every trick an icon upload might hide. */
export const HOSTILE_SVG = `<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10" onload="alert(1)">
  <script>alert(2)</script>
  <foreignObject><body xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert(3)"/></body></foreignObject>
  <a href="javascript:alert(4)"><circle r="4" fill="red" onclick="alert(5)"/></a>
  <image href="https://tracker.example/pixel.png" width="1" height="1"/>
  <use xlink:href="https://evil.example/sprite.svg#x"/>
  <style>@import url(https://evil.example/a.css);</style>
  <rect width="2" height="2" fill="url(https://evil.example/p)" style="fill:url(https://evil.example/q)"/>
  <rect width="3" height="3" fill="#00ff00"/>
</svg>`;

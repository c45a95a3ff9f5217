import { crc32, deflateSync } from 'node:zlib';

/** Small real images (16×12, made once with an image library and kept as bytes). */
export const PICTURES = {
  png: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAABAAAAAMCAIAAADkharWAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAGElEQVQokWM4Y5xGEmIY1WA8GkpnsIUBAN9JC9DsOMQ9AAAAAElFTkSuQmCC', 'base64'),
  gif: Buffer.from('R0lGODlhEAAMAIAAAExpccwzZiH5BAUAAAAALAAAAAAQAAwAAAIMjI+py+0Po5y02msKADs=', 'base64'),
  jpeg: Buffer.from(
    '/9j/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAAMABADASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAT/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAAAAb/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwCIAUT/2Q==',
    'base64',
  ),
} as const;

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An RGB PNG of `width`×`height` whose IDAT holds `rows` zero rows (all of them: a real image; fewer: a bomb's shape). */
function rgbPng(width: number, height: number, rows: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.alloc((width * 3 + 1) * rows))), chunk('IEND', Buffer.alloc(0))]);
}

/** A valid PNG whose header declares `width`×`height` but whose data is one compressed row: a decompression bomb's shape. */
export function pngBomb(width: number, height: number): Buffer {
  return rgbPng(width, height, 1);
}

/** A real (fully decodable) black RGB PNG of `width`×`height`. */
export function solidPng(width: number, height: number): Buffer {
  return rgbPng(width, height, height);
}

export const PLAIN_SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><circle cx="2" cy="2" r="2" fill="#336699"/></svg>';

export const HOSTILE_SVG = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10" onload="alert(1)">
  <script>alert(document.cookie)</script>
  <foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml" onmouseover="alert(3)">x</div></foreignObject>
  <a xlink:href="javascript:alert(4)"><rect width="5" height="5" fill="#ff0000" onclick="alert(5)"/></a>
  <image href="http://127.0.0.9/pixel.png" width="1" height="1"/>
  <rect width="2" height="2" style="fill:url(http://127.0.0.9/x)"/>
</svg>`;

/** A multipart form with one `image` file part, as a browser or `@mattermost/client` sends it. */
export function imageForm(data: Buffer | string, filename: string, type: string): FormData {
  const form = new FormData();
  form.append('image', new Blob([typeof data === 'string' ? data : new Uint8Array(data)], { type }), filename);
  return form;
}

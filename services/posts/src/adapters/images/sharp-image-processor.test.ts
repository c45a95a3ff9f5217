import { test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { SharpImageProcessor } from './sharp-image-processor';
import { ImageThreadPriority } from './image-thread-priority';
import { getPriority } from 'node:os';
import { readFileSync, readdirSync } from 'node:fs';
import { pngBomb } from '../../test-support/png-bomb';

const image = (width: number, height: number, format: 'png' | 'jpeg'): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } } })[format]().toBuffer();

test('when a wide image is processed, then the thumbnail covers 120x100 (height 100), the preview is at most 1920 wide, all JPEG', async () => {
  const out = await new SharpImageProcessor().process(await image(3000, 1000, 'png'), 'png');
  assert.ok(out.ok);
  assert.equal(out.image.width, 3000);
  assert.equal(out.image.height, 1000);
  const thumb = await sharp(out.image.thumbnail).metadata();
  assert.deepEqual([thumb.format, thumb.width, thumb.height], ['jpeg', 300, 100]);
  const preview = await sharp(out.image.preview).metadata();
  assert.deepEqual([preview.format, preview.width, preview.height], ['jpeg', 1920, 640]);
  assert.equal((await sharp(out.image.miniPreview).metadata()).width, 16);
});

test('when a small image is processed, then nothing is upscaled', async () => {
  const out = await new SharpImageProcessor().process(await image(40, 30, 'jpeg'), 'jpg');
  assert.ok(out.ok);
  const thumb = await sharp(out.image.thumbnail).metadata();
  assert.deepEqual([thumb.width, thumb.height], [40, 30]);
});

test('when an image declares more pixels than the limit, then too_large before any pixel is decoded', async () => {
  const out = await new SharpImageProcessor().process(pngBomb(50_000, 50_000), 'png');
  assert.equal(out.ok, false);
  assert.equal(!out.ok && out.reason, 'too_large');
});

test('when the bytes are not the extension\'s format or are garbage after a PNG header, then corrupt; other image types are not decoded', async () => {
  const processor = new SharpImageProcessor();
  const png = await image(20, 20, 'png');
  for (const [data, ext] of [[Buffer.from('not an image'), 'png'], [png, 'jpg'], [Buffer.concat([png.subarray(0, 33), Buffer.alloc(100, 7)]), 'png']] as const) {
    const out = await processor.process(data, ext);
    assert.equal(!out.ok && out.reason, 'corrupt', `${ext}: ${data.length} bytes`);
  }
  assert.equal((await processor.process(png, 'bmp')).ok, false);
});

test('when a photo carries an EXIF rotation, then its size is reported upright and every output is upright with no rotation left to apply', async () => {
  const sideways = await sharp({ create: { width: 3000, height: 1000, channels: 3, background: { r: 200, g: 10, b: 10 } } }).jpeg().withMetadata({ orientation: 6 }).toBuffer();
  const out = await new SharpImageProcessor().process(sideways, 'jpg');
  assert.ok(out.ok);
  assert.deepEqual([out.image.width, out.image.height], [1000, 3000]);
  const sizes = await Promise.all([out.image.preview, out.image.thumbnail, out.image.miniPreview].map(async (b) => sharp(b).metadata()));
  assert.deepEqual(sizes.map((m) => [m.width, m.height, m.orientation]), [[1000, 3000, undefined], [120, 360, undefined], [16, 16, undefined]]);
});

test('when a PNG is transparent, then the preview, thumbnail and mini preview are on white', async () => {
  const clear = await sharp({ create: { width: 400, height: 300, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).png().toBuffer();
  const out = await new SharpImageProcessor().process(clear, 'png');
  assert.ok(out.ok);
  for (const bytes of [out.image.preview, out.image.thumbnail, out.image.miniPreview]) {
    const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    assert.equal(info.channels, 3);
    assert.ok(data.every((v) => v >= 250), 'white');
  }
});

test('when an image is processed on Linux, then every libvips worker thread of the process runs at the configured nice value', { skip: process.platform !== 'linux' }, async () => {
  const own = getPriority(process.pid);
  const nice = Math.min(19, own + 5); // above the process's own (lowering a nice value needs privilege)
  const out = await new SharpImageProcessor(undefined, new ImageThreadPriority(nice)).process(await image(3000, 2000, 'jpeg'), 'jpg');
  assert.ok(out.ok);
  const workers = readdirSync('/proc/self/task').filter((tid) => readFileSync(`/proc/self/task/${tid}/comm`, 'latin1').trim() === 'libvips worker');
  assert.ok(workers.length > 0, 'libvips started worker threads');
  assert.deepEqual(workers.map((tid) => getPriority(Number(tid))), workers.map(() => nice));
  assert.equal(getPriority(process.pid), own, 'the event loop thread keeps its priority');
});

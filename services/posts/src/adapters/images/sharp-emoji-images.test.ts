import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { SharpEmojiImages } from './sharp-emoji-images';
import { pngBomb } from '../../test-support/png-bomb';

const solid = (width: number, height: number, format: 'png' | 'gif' | 'jpeg' | 'webp') => sharp({ create: { width, height, channels: 3, background: '#336699' } })[format]().toBuffer();

describe('SharpEmojiImages', () => {
  const images = new SharpEmojiImages();

  it('when an image fits 128 × 128, then it is kept byte for byte with its format', async () => {
    for (const format of ['png', 'gif', 'jpeg', 'webp'] as const) {
      const data = await solid(100, 40, format);
      const out = await images.prepare(data);
      assert.ok(out.ok, format);
      if (out.ok) {
        assert.equal(out.format, format);
        assert.equal(Buffer.compare(out.data, data), 0);
      }
    }
  });

  it('when it is larger, then it is scaled to fit 128 × 128 (aspect kept): PNG, or GIF for a GIF', async () => {
    const png = await images.prepare(await solid(300, 150, 'jpeg'));
    assert.ok(png.ok && png.format === 'png');
    if (png.ok) assert.deepEqual([(await sharp(png.data).metadata()).width, (await sharp(png.data).metadata()).height], [128, 64]);
    const gif = await images.prepare(await solid(150, 600, 'gif'));
    assert.ok(gif.ok && gif.format === 'gif');
    if (gif.ok) assert.deepEqual([(await sharp(gif.data).metadata()).width, (await sharp(gif.data).metadata()).height], [32, 128]);
  });

  it('when it is wider or taller than 1028, or declares a huge size, then too_large before any pixel is decoded', async () => {
    const wide = await images.prepare(await solid(1029, 4, 'png'));
    assert.deepEqual(wide.ok ? 'ok' : wide.reason, 'too_large');
    const bomb = await images.prepare(pngBomb(20_000, 20_000));
    assert.deepEqual(bomb.ok ? 'ok' : bomb.reason, 'too_large');
  });

  it('when the bytes are no image it knows (text, SVG, TIFF), then not_image', async () => {
    for (const data of [Buffer.from('hello'), Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), await solid(10, 10, 'png').then(() => sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } }).tiff().toBuffer())]) {
      const out = await images.prepare(data);
      assert.equal(out.ok ? 'ok' : out.reason, 'not_image');
    }
  });
});

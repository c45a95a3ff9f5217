import type { EmojiImageFormat, EmojiImageOutcome, EmojiImageProcessor } from '../../domain/emoji/emoji-ports';
import { EMOJI_LIMITS } from '../../domain/emoji/emoji';
import { emojiFormatOf } from '../../domain/emoji/emoji-format';
import { messageOf, sharpModule } from './sharp-module';

/** Frames × pixels an animated emoji may decode to at most (64 full-size frames): bounded work per upload. */
const MAX_TOTAL_PIXELS = EMOJI_LIMITS.originalSide * EMOJI_LIMITS.originalSide * 64;

/**
 * As the reference's uploadEmojiImage: the header is read first and an image wider or taller than 1028 is
 * refused before any pixel is decoded; one within 128 × 128 is stored as it came; a larger one is scaled to
 * fit 128 × 128 (aspect kept), a GIF as an animated GIF, anything else as PNG.
 */
export class SharpEmojiImages implements EmojiImageProcessor {
  public async prepare(data: Buffer): Promise<EmojiImageOutcome> {
    const format: EmojiImageFormat | undefined = emojiFormatOf(data);
    if (!format) return { ok: false, reason: 'not_image', detail: 'not a PNG, JPEG, GIF or WebP image' };
    const sharp = await sharpModule();
    let meta;
    try {
      meta = await sharp(data, { limitInputPixels: false, failOn: 'none' }).metadata();
    } catch (error) {
      return { ok: false, reason: 'not_image', detail: messageOf(error) };
    }
    const width = meta.width ?? 0;
    const height = meta.pageHeight ?? meta.height ?? 0;
    if (width === 0 || height === 0) return { ok: false, reason: 'not_image', detail: 'the image has no size' };
    if (width > EMOJI_LIMITS.originalSide || height > EMOJI_LIMITS.originalSide) return { ok: false, reason: 'too_large', detail: `${width}x${height}` };
    if (width <= EMOJI_LIMITS.side && height <= EMOJI_LIMITS.side) return { ok: true, data, format };
    const pages = Math.max(1, meta.pages ?? 1);
    if (width * height * pages > MAX_TOTAL_PIXELS) return { ok: false, reason: 'too_large', detail: `${pages} frames of ${width}x${height}` };
    const fit = { width: EMOJI_LIMITS.side, height: EMOJI_LIMITS.side, fit: 'inside' as const };
    try {
      if (format === 'gif') {
        const gif = await sharp(data, { animated: true, limitInputPixels: MAX_TOTAL_PIXELS, failOn: 'error' }).resize(fit).gif().toBuffer();
        return { ok: true, data: gif, format: 'gif' };
      }
      const png = await sharp(data, { limitInputPixels: MAX_TOTAL_PIXELS, failOn: 'error', animated: false }).resize(fit).png().toBuffer();
      return { ok: true, data: png, format: 'png' };
    } catch (error) {
      return { ok: false, reason: 'corrupt', detail: messageOf(error) };
    }
  }
}

import { open } from 'node:fs/promises';
import type { ImageOutcome, ImageProcessor } from '../../domain/files/file-ports';
import { ImageThreadPriority } from './image-thread-priority';
import { messageOf, sharpModule } from './sharp-module';

/** The most pixels an image may have (the reference's 2021 limit, as the pictures code: 6048 × 4032). */
export const MAX_IMAGE_PIXELS = 6048 * 4032;
/** Thumbnails cover this box (never upscaled); previews are at most this wide. */
const THUMB_WIDTH = 120;
const THUMB_HEIGHT = 100;
const PREVIEW_WIDTH = 1920;
const MINI_SIDE = 16;

type Format = 'png' | 'jpeg' | 'gif' | 'webp' | 'tiff';

/** Extensions whose images are decoded (others, SVG included, are stored as they are). */
const DECODED: Readonly<Record<string, Format>> = { png: 'png', jpg: 'jpeg', jpeg: 'jpeg', jpe: 'jpeg', gif: 'gif', webp: 'webp', tif: 'tiff', tiff: 'tiff' };

/** The format by magic bytes: nothing else is handed to the decoder. */
export function magicFormat(data: Buffer): Format | undefined {
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  const head = data.subarray(0, 12).toString('latin1');
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) return 'gif';
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return 'webp';
  if (head.startsWith('II*\0') || head.startsWith('MM\0*')) return 'tiff';
  return undefined;
}

/** The first bytes of the input (enough for magicFormat). */
async function headOf(input: Buffer | string): Promise<Buffer> {
  if (Buffer.isBuffer(input)) return input.subarray(0, 16);
  const handle = await open(input, 'r');
  try {
    const head = Buffer.alloc(16);
    const { bytesRead } = await handle.read(head, 0, 16, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Thumbnails, previews and mini previews with sharp (libvips on libuv's thread pool: the event loop only
 * hands buffers over). The header is read first and the pixel count checked before any pixel is decoded
 * (a small file declaring a huge image costs nothing), as the pictures code does (ADR 0011). libvips'
 * worker threads run at a lower priority than the event loop's thread (`threads`, ADR 0029).
 */
export class SharpImageProcessor implements ImageProcessor {
  public constructor(
    public readonly maxPixels = MAX_IMAGE_PIXELS,
    private readonly threads = new ImageThreadPriority(),
  ) {}

  /** `data`: the bytes, or a file's path (a staged upload: libvips reads it on its own threads). */
  public async process(data: Buffer | string, extension: string): Promise<ImageOutcome> {
    const expected = DECODED[extension];
    if (!expected) return { ok: false, reason: 'not_image', detail: `.${extension} images are stored as they are` };
    const format = magicFormat(await headOf(data));
    if (!format || format !== expected) return { ok: false, reason: 'corrupt', detail: `the bytes are not a ${expected} image` };
    const sharp = await sharpModule();
    let meta;
    try {
      meta = await sharp(data, { limitInputPixels: false, failOn: 'none' }).metadata();
    } catch (error) {
      return { ok: false, reason: 'corrupt', detail: messageOf(error) };
    }
    const { width, height } = meta;
    if (!width || !height) return { ok: false, reason: 'corrupt', detail: 'the image has no size' };
    if (width * height > this.maxPixels) return { ok: false, reason: 'too_large', detail: `${width}x${height}` };
    const rotated = (meta.orientation ?? 1) >= 5;
    const animated = (meta.pages ?? 1) > 1;
    const options = { limitInputPixels: this.maxPixels, failOn: 'error' as const, animated: false };
    const watched = this.threads.watch();
    try {
      // Decoded once (JPEG shrinks on load), upright, on white, at preview size, and encoded there: the decoded
      // pixels never come to JavaScript. (They did, as an 8 MB raw buffer per 12 MP photo: V8 counts such buffers
      // as external memory, and every few images collected for it, with incremental marking steps of up to 9 ms
      // on the event loop (--trace-gc: "external memory pressure").) The thumbnail is made from the preview and
      // the mini preview from the thumbnail (JPEG shrink-on-load again: a few ms each), one after another.
      const preview = await sharp(data, options)
        .rotate()
        .resize({ width: PREVIEW_WIDTH, withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        // Standard Huffman tables (as the reference's Go encoder): a second pass over a 1920-wide preview costs
        // about 14 ms of CPU (half its encoding) for ~10 % fewer bytes; the small thumbnail keeps the pass.
        .jpeg({ quality: 90, optimiseCoding: false })
        .toBuffer();
      const thumbnail = await sharp(preview).resize({ width: THUMB_WIDTH, height: THUMB_HEIGHT, fit: 'outside', withoutEnlargement: true }).jpeg({ quality: 90 }).toBuffer();
      const miniPreview = await sharp(thumbnail).resize(MINI_SIDE, MINI_SIDE, { fit: 'cover' }).jpeg({ quality: 70 }).toBuffer();
      return {
        ok: true,
        image: { width: rotated ? height : width, height: rotated ? width : height, thumbnail, preview, miniPreview, hasPreviewImage: !animated },
      };
    } catch (error) {
      return { ok: false, reason: 'corrupt', detail: messageOf(error) };
    } finally {
      watched();
    }
  }
}

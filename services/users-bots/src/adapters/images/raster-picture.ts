import type { ProfilePictureResult } from '../../domain/ports';

/** The side of a profile picture, as the reference stores them. */
export const PROFILE_PICTURE_SIDE = 128;
/** The most pixels an upload may declare (the reference's limit: 6048 × 4032). */
export const MAX_PICTURE_PIXELS = 6048 * 4032;

type Format = 'png' | 'jpeg' | 'gif';

/** The format by magic bytes; nothing else is even handed to the decoder. */
export function rasterFormat(data: Buffer): Format | undefined {
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  if (data.length >= 6 && (data.subarray(0, 6).toString('latin1') === 'GIF87a' || data.subarray(0, 6).toString('latin1') === 'GIF89a')) return 'gif';
  return undefined;
}

const loadSharp = async () => {
  const { default: sharp } = await import('sharp');
  sharp.cache(false);
  return sharp;
};
let loading: ReturnType<typeof loadSharp> | undefined;

/** sharp (libvips, prebuilt in its npm package), loaded on first use, without its operation cache. */
function sharpModule(): ReturnType<typeof loadSharp> {
  if (!loading) loading = loadSharp();
  return loading;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * A PNG, JPEG or GIF upload → a 128×128 PNG (centred, cropped to fill, EXIF orientation applied; the first
 * frame of an animation). The header is read first and the declared size checked before any pixel is
 * decoded, so a small file declaring a huge image (a decompression bomb) costs nothing.
 */
export async function profilePicture(data: Buffer): Promise<ProfilePictureResult> {
  const format = rasterFormat(data);
  if (!format) return { ok: false, reason: 'format', detail: 'not a PNG, JPEG or GIF image' };
  const sharp = await sharpModule();
  const options = { limitInputPixels: MAX_PICTURE_PIXELS, failOn: 'error' as const, animated: false };
  let width: number | undefined;
  let height: number | undefined;
  try {
    const meta = await sharp(data, { ...options, limitInputPixels: false }).metadata();
    if (meta.format !== format) return { ok: false, reason: 'format', detail: `the header says ${String(meta.format)}, the bytes ${format}` };
    ({ width, height } = meta);
  } catch (error) {
    return { ok: false, reason: 'format', detail: messageOf(error) };
  }
  if (!width || !height) return { ok: false, reason: 'format', detail: 'the image has no size' };
  if (width * height > MAX_PICTURE_PIXELS) return { ok: false, reason: 'dimensions', detail: `${width}x${height} is over ${MAX_PICTURE_PIXELS} pixels` };
  try {
    const png = await sharp(data, options).rotate().resize(PROFILE_PICTURE_SIDE, PROFILE_PICTURE_SIDE, { fit: 'cover', position: 'centre' }).png().toBuffer();
    return { ok: true, png };
  } catch (error) {
    return { ok: false, reason: 'corrupt', detail: messageOf(error) };
  }
}

import { PROFILE_PICTURE_SIDE } from './raster-picture';

/** Background colours of default pictures (white letters stay readable on each). */
const PALETTE = [0x1e88e5, 0x43a047, 0xe53935, 0x8e24aa, 0xfb8c00, 0x00897b, 0x3949ab, 0xd81b60, 0x6d4c41, 0x546e7a, 0x7cb342, 0x039be5];

/** FNV-1a over the seed: the same user always gets the same colour. */
export function paletteIndex(seed: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(seed, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % PALETTE.length;
}

export function backgroundOf(seed: string): number {
  return PALETTE[paletteIndex(seed)] ?? 0x546e7a;
}

const loadDrawing = async () => {
  const [jimp, fonts] = await Promise.all([import('jimp'), import('jimp/fonts')]);
  return { jimp, font: await jimp.loadFont(fonts.SANS_64_WHITE) };
};
let loading: ReturnType<typeof loadDrawing> | undefined;

/** jimp (pure JavaScript, with its own bitmap fonts: no system fonts needed), loaded on first use. */
function drawing(): ReturnType<typeof loadDrawing> {
  if (!loading) loading = loadDrawing();
  return loading;
}

/** Generated pictures by (initial, seed): a busy channel's posts ask for the same few again and again. */
const cache = new Map<string, Buffer>();
const CACHE_MAX = 2_000;

/** The default profile picture: a 128×128 PNG, the initial in white, centred on a colour from the seed. */
export async function initialsPicture(initial: string, seed: string): Promise<Buffer> {
  const cacheKey = `${initial}\u0000${seed}`;
  const hit = cache.get(cacheKey);
  if (hit) return Buffer.from(hit);
  const { jimp, font } = await drawing();
  const side = PROFILE_PICTURE_SIDE;
  const image = new jimp.Jimp({ width: side, height: side, color: backgroundOf(seed) * 0x100 + 0xff });
  image.print({
    font,
    x: 0,
    y: 0,
    text: { text: initial, alignmentX: jimp.HorizontalAlign.CENTER, alignmentY: jimp.VerticalAlign.MIDDLE },
    maxWidth: side,
    maxHeight: side,
  });
  const png = await image.getBuffer('image/png');
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(cacheKey, png);
  return Buffer.from(png);
}

import type { EmojiImageFormat } from './emoji-ports';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The format of an emoji image by its first bytes (what `image.DecodeConfig` would recognise), else undefined. */
export function emojiFormatOf(data: Buffer): EmojiImageFormat | undefined {
  if (data.length >= 8 && data.subarray(0, 8).equals(PNG)) return 'png';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  const head = data.subarray(0, 12).toString('latin1');
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) return 'gif';
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return 'webp';
  return undefined;
}

import type { StoredImage } from '../ports';

/** Where a user's uploaded profile picture (a 128×128 PNG) is stored. */
export function profileImageKey(userId: string): string {
  return `users/${userId}/profile.png`;
}

/** Where a bot's icon (a sanitised SVG) is stored. */
export function botIconKey(botId: string): string {
  return `bots/${botId}/icon.svg`;
}

export const PNG = 'image/png';
export const SVG = 'image/svg+xml';

/** A picture as an answer: its bytes, its type, and the validator the client may send back (none: a generated default). */
export interface Picture {
  readonly contentType: string;
  readonly data: Buffer;
  readonly etag?: string;
}

export function pictureOf(image: StoredImage, etag: string): Picture {
  return { contentType: image.contentType, data: image.data, etag };
}

/** The letter the default picture shows: the username's first character, upper-cased. */
export function initialOf(username: string): string {
  return (username.charAt(0) || '?').toUpperCase();
}

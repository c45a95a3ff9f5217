import { lookup } from 'mime-types';
import { FileErrors } from './file-errors';

/** Longest file name accepted, in UTF-8 bytes (what common filesystems and S3 keys take). */
const MAX_NAME_BYTES = 255;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The uploaded name, checked: no directory part (`a/b`, `..\\x`), no `.`/`..`, no control character, at
 * most 255 bytes. The reference keeps only the base name; a name with a path is refused here instead, so
 * nothing lands under a name the client did not mean.
 */
export function checkedFileName(raw: string): string {
  const name = raw.normalize('NFC');
  if (name === '' || name.trim() === '') throw FileErrors.badName('the file has no name');
  if (name.includes('/') || name.includes('\\')) throw FileErrors.badName('the file name has a path');
  if (CONTROL.test(name)) throw FileErrors.badName('the file name has a control character');
  if (name === '.' || name === '..') throw FileErrors.badName('the file name is a directory');
  if (Buffer.byteLength(name) > MAX_NAME_BYTES) throw FileErrors.badName(`the file name is over ${MAX_NAME_BYTES} bytes`);
  return name;
}

/** Lower-cased extension without the dot, '' when none. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 || dot === name.length - 1 ? '' : name.slice(dot + 1).toLowerCase();
}

/** The MIME type from the extension only (never sniffed), '' when unknown. */
export function mimeTypeOf(name: string): string {
  const type = lookup(name);
  return type === false ? '' : type;
}

/** `<name without extension>` for the thumbnail and preview keys. */
export function baseNameOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? name : name.slice(0, dot);
}

/**
 * Range and conditional requests on file bytes, as Go's `http.ServeContent` answers them (the reference
 * serves every file route through it, mattermost-wire-3.md §1.4): `If-Unmodified-Since` → 412,
 * `If-Modified-Since` → 304, `If-Range` (a date) keeps or drops the range, and `Range: bytes=...`.
 */

/** A range of the content, both ends included. */
export interface ContentRange {
  readonly start: number;
  readonly end: number;
}

export type RangeAnswer =
  | { readonly kind: 'whole' }
  | { readonly kind: 'part'; readonly range: ContentRange }
  /** Several ranges, in the order asked (Go answers them as multipart/byteranges). */
  | { readonly kind: 'parts'; readonly ranges: readonly ContentRange[] }
  /** `Range` that does not parse, or that no part of the content satisfies (`noOverlap`: Content-Range `bytes *\/size`). */
  | { readonly kind: 'unsatisfiable'; readonly reason: string; readonly noOverlap: boolean };

const DIGITS = /^\d+$/;
/**
 * More ranges than this are answered whole (200), as ranges adding up to more than the content are: each part
 * is a store read (an S3 GET), and a 16 KB header holds ~3,000 ranges. Go sets no such limit; Apache's
 * MaxRanges is 200.
 */
export const MAX_RANGES = 100;
const trim = (s: string): string => s.replace(/^[ \t]+|[ \t]+$/g, '');

/**
 * Go's parseRange: `bytes=` then comma-separated `start-end`, `start-` or `-suffix`; a syntax error is
 * "invalid range"; ranges all starting past the end are "failed to overlap". One range is a part, several
 * are parts (multipart/byteranges); ranges that add up to more than the content are answered whole (as Go:
 * "probably an attack, or a dumb client"), and so are more than MAX_RANGES ranges.
 */
export function rangeOf(header: string | undefined, size: number): RangeAnswer {
  if (header === undefined || header === '') return { kind: 'whole' };
  const invalid = { kind: 'unsatisfiable', reason: 'invalid range', noOverlap: false } as const;
  if (!header.startsWith('bytes=')) return invalid;
  const ranges: ContentRange[] = [];
  let noOverlap = false;
  for (const raw of header.slice('bytes='.length).split(',')) {
    const spec = trim(raw);
    if (spec === '') continue;
    const dash = spec.indexOf('-');
    if (dash < 0) return invalid;
    const first = trim(spec.slice(0, dash));
    const last = trim(spec.slice(dash + 1));
    if (first === '') {
      if (!DIGITS.test(last)) return invalid;
      const suffix = Math.min(Number(last), size);
      ranges.push({ start: size - suffix, end: size - 1 });
      continue;
    }
    if (!DIGITS.test(first)) return invalid;
    const start = Number(first);
    if (start >= size) {
      noOverlap = true;
      continue;
    }
    if (last === '') {
      ranges.push({ start, end: size - 1 });
      continue;
    }
    if (!DIGITS.test(last) || start > Number(last)) return invalid;
    ranges.push({ start, end: Math.min(Number(last), size - 1) });
  }
  if (noOverlap && ranges.length === 0) return { kind: 'unsatisfiable', reason: 'invalid range: failed to overlap', noOverlap: true };
  const total = ranges.reduce((sum, r) => sum + (r.end - r.start + 1), 0);
  const only = ranges[0];
  // An empty suffix range (`-0`) is answered whole, as before (Go would send an empty part).
  if (!only || total > size || ranges.length > MAX_RANGES || ranges.some((r) => r.end < r.start)) return { kind: 'whole' };
  return ranges.length === 1 ? { kind: 'part', range: only } : { kind: 'parts', ranges };
}

/** An HTTP date, to the second; undefined when it does not parse. */
function secondsOf(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

export type Precondition = 'proceed' | 'not_modified' | 'failed';

/**
 * Go's checkPreconditions for content with a modification time and no ETag: `If-Unmodified-Since` older
 * than the content → 412; `If-Modified-Since` not older (GET and HEAD only) → 304.
 */
export function preconditionOf(method: string, headers: Readonly<Record<string, string | string[] | undefined>>, modifiedMs: number): Precondition {
  const modified = Math.floor(modifiedMs / 1000);
  const unmodifiedSince = secondsOf(headers['if-unmodified-since'] as string | undefined);
  if (unmodifiedSince !== undefined && modified > unmodifiedSince) return 'failed';
  const modifiedSince = secondsOf(headers['if-modified-since'] as string | undefined);
  if ((method === 'GET' || method === 'HEAD') && headers['if-none-match'] === undefined && modifiedSince !== undefined && modified <= modifiedSince) return 'not_modified';
  return 'proceed';
}

/** Go's checkIfRange for a date validator: the range holds only when the content is not newer than the date. */
export function rangeStillValid(headers: Readonly<Record<string, string | string[] | undefined>>, modifiedMs: number): boolean {
  const value = headers['if-range'] as string | undefined;
  if (value === undefined || value === '') return true;
  const since = secondsOf(value);
  return since !== undefined && Math.floor(modifiedMs / 1000) === since;
}

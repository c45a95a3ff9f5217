import type { DateFilter } from './search-query';

const DAY_MS = 86_400_000;

/** create_at bounds (inclusive) of a search, and whole days left out. */
export interface TimeBounds {
  readonly from?: number;
  readonly to?: number;
  readonly excluded: readonly { readonly from: number; readonly to: number }[];
}

/**
 * The start (ms) of a `YYYY-M-D` day in a fixed zone `offsetSeconds` east of UTC; undefined when the text
 * is not a real date (`2026-02-30`, `2026-13-01`, `yesterday`).
 */
export function startOfDay(text: string, offsetSeconds: number): number | undefined {
  const match = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text.trim());
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const utc = Date.UTC(year, month - 1, day);
  const check = new Date(utc);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return undefined;
  return utc - offsetSeconds * 1000;
}

/**
 * The reference's date filters (§2.2): `after:D` from the start of the next day (an unreadable date: now),
 * `before:D` up to the end of the previous day (unreadable: 0, nothing matches), `on:D` the whole day (then
 * the others are ignored), `-on:` leaves a day out, `-after:` ends before the next day, `-before:` starts at D.
 */
export function timeBounds(dates: DateFilter, offsetSeconds: number, now: number): TimeBounds {
  if (dates.on !== undefined) {
    const start = startOfDay(dates.on, offsetSeconds);
    if (start === undefined) return { from: 1, to: 0, excluded: [] };
    return { from: start, to: start + DAY_MS - 1, excluded: [] };
  }
  let from: number | undefined;
  let to: number | undefined;
  const atLeast = (value: number): void => void (from = from === undefined ? value : Math.max(from, value));
  const atMost = (value: number): void => void (to = to === undefined ? value : Math.min(to, value));
  for (const text of dates.after) {
    const start = startOfDay(text, offsetSeconds);
    atLeast(start === undefined ? now : start + DAY_MS);
  }
  for (const text of dates.before) {
    const start = startOfDay(text, offsetSeconds);
    atMost(start === undefined ? 0 : start - 1);
  }
  for (const text of dates.notAfter) {
    const start = startOfDay(text, offsetSeconds);
    if (start !== undefined) atMost(start + DAY_MS - 1);
  }
  for (const text of dates.notBefore) {
    const start = startOfDay(text, offsetSeconds);
    if (start !== undefined) atLeast(start);
  }
  const excluded = dates.notOn.flatMap((text) => {
    const start = startOfDay(text, offsetSeconds);
    return start === undefined ? [] : [{ from: start, to: start + DAY_MS - 1 }];
  });
  return { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}), excluded };
}

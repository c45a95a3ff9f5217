import { commonErrors } from '@switchyard/errors';

const VALID_ID = /^[a-z0-9]{26}$/;

/** URL params that must be ids (`user_id`, `team_id`, ...): 400 invalid_url_param otherwise. */
export function requireIdParam(value: unknown, name: string): string {
  if (typeof value !== 'string' || !VALID_ID.test(value)) throw commonErrors.invalidUrlParam(name);
  return value;
}

export interface Paging {
  readonly page: number;
  readonly perPage: number;
}

const INT64_MAX = 2n ** 63n - 1n;
/** The largest skip a list may ask of a store (MongoDB and SQLite take it; no list is that long). */
export const MAX_OFFSET = 2 ** 31 - 1;

/**
 * Go's `query.Get` then `strconv.Atoi`: the first value of a repeated parameter; an optional sign and
 * decimal digits within int64; anything else (empty, spaces, decimals, overflow) is an error (undefined).
 */
export function goAtoi(value: unknown): number | undefined {
  const first = Array.isArray(value) ? (value as unknown[])[0] : value;
  if (typeof first !== 'string' || !/^[+-]?\d+$/.test(first)) return undefined;
  const big = BigInt(first);
  if (big > INT64_MAX || big < -INT64_MAX - 1n) return undefined;
  return Number(big);
}

/**
 * As the reference's web/params.go: `page` default 0 (an error or a negative value → 0); `per_page`
 * (when it does not parse, `pageSize` is tried) default 60, an error or a negative value → 60, above
 * the maximum → the maximum (200).
 */
export function parsePaging(query: Record<string, unknown>, defaultPerPage = 60, maxPerPage = 200): Paging {
  const page = goAtoi(query.page);
  const perPageRaw = goAtoi(query.per_page) ?? goAtoi(query.pageSize);
  const perPage =
    perPageRaw === undefined || perPageRaw < 0 ? defaultPerPage : perPageRaw > maxPerPage ? maxPerPage : perPageRaw;
  // A page past any store's offset limit is just past the data: capped so page × per_page stays a safe offset.
  const maxPage = Math.floor(MAX_OFFSET / Math.max(perPage, 1));
  return { page: page === undefined || page < 0 ? 0 : Math.min(page, maxPage), perPage };
}

const TRUE_VALUES = new Set(['1', 't', 'T', 'true', 'TRUE', 'True']);

/** `?flag=true` style booleans, as Go's strconv.ParseBool reads them (1, t, true, TRUE, ...); anything else is false. */
export function queryFlag(query: Record<string, unknown>, name: string): boolean {
  const raw = query[name];
  const value = Array.isArray(raw) ? (raw as unknown[])[0] : raw;
  return typeof value === 'string' && TRUE_VALUES.has(value);
}

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

function toInt(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^-?\d+$/.test(value)) return undefined;
  return Number.parseInt(value, 10);
}

/** As the reference: page default 0 (negative or invalid → 0); per_page default 60, max 200, invalid → 60. */
export function parsePaging(query: Record<string, unknown>, defaultPerPage = 60, maxPerPage = 200): Paging {
  const page = toInt(query.page);
  const perPageRaw = toInt(query.per_page ?? query.pageSize);
  const perPage =
    perPageRaw === undefined || perPageRaw < 0 ? defaultPerPage : perPageRaw > maxPerPage ? maxPerPage : perPageRaw;
  return { page: page === undefined || page < 0 ? 0 : page, perPage };
}

const TRUE_VALUES = new Set(['1', 't', 'T', 'true', 'TRUE', 'True']);

/** `?flag=true` style booleans, as Go's strconv.ParseBool reads them (1, t, true, TRUE, ...); anything else is false. */
export function queryFlag(query: Record<string, unknown>, name: string): boolean {
  const value = query[name];
  return typeof value === 'string' && TRUE_VALUES.has(value);
}

import type { Request } from 'express';
import { parsePaging, queryFlag, requireIdParam, type Paging } from '@switchyard/validation';
import { requireIdentity } from './identity-middleware';

/** An id URL param; an invalid id is 400 invalid_url_param (before any permission check). */
export function idParam(req: Request, name: string): string {
  return requireIdParam(req.params[name], name);
}

/** A `user_id`-style URL param where `me` is the caller (401 without one). */
export function userIdParam(req: Request, name = 'user_id'): string {
  const value = req.params[name];
  if (value === 'me') return requireIdentity(req).userId;
  return requireIdParam(value, name);
}

/** A single string query value (repeated keys: the first). */
export function queryValue(req: Request, name: string): string | undefined {
  const value = (req.query as Record<string, unknown>)[name];
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return undefined;
}

/** A query flag: true for Mattermost's spellings of true; absent or anything else is false. */
export function queryBool(req: Request, name: string): boolean {
  const value = queryValue(req, name);
  return value !== undefined && queryFlag({ [name]: value }, name);
}

/** `page` and `per_page` (or `pageSize`) of the query, validated. */
export function paging(req: Request): Paging {
  return parsePaging({ page: queryValue(req, 'page'), per_page: queryValue(req, 'per_page'), pageSize: queryValue(req, 'pageSize') });
}

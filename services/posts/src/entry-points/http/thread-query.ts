import type { Request } from 'express';
import { commonErrors } from '@switchyard/errors';
import { THREAD_PER_PAGE_MAX, type ThreadQuery } from '../../domain/posts/get-thread.usecase';
import { goInt } from './go-int';
import { queryValue } from './http-context';

/** A query integer as the reference reads it: absent or empty is 0, anything Go cannot parse is 400 invalid_body_param. */
function intParam(req: Request, name: string): number {
  const raw = queryValue(req, name) ?? '';
  if (raw === '') return 0;
  const value = goInt(raw);
  if (value === undefined) throw commonErrors.invalidBodyParam(name);
  return value;
}

/**
 * `GET /posts/{id}/thread` query, read and checked as the reference's getPostThread does, in its order (each
 * failure is its `c.SetInvalidParam…`: 400 `api.context.invalid_body_param.app_error`); flags are `== "true"`.
 */
export function threadQueryOf(req: Request): ThreadQuery {
  const flag = (name: string): boolean => queryValue(req, name) === 'true';
  const perPage = intParam(req, 'perPage');
  if (perPage > THREAD_PER_PAGE_MAX) throw commonErrors.invalidBodyParam('perPage');
  const fromCreateAt = intParam(req, 'fromCreateAt');
  const fromPost = queryValue(req, 'fromPost') ?? '';
  if (fromPost !== '' && fromCreateAt === 0) throw commonErrors.invalidBodyParam('if fromPost is set, then fromCreateAt must also be set');
  const fromUpdateAt = intParam(req, 'fromUpdateAt');
  if (fromUpdateAt !== 0 && fromCreateAt !== 0) throw commonErrors.invalidBodyParam('fromUpdateAt', 'both fromUpdateAt and fromCreateAt cannot be set');
  const updatesOnly = flag('updatesOnly');
  if (updatesOnly && fromUpdateAt === 0) throw commonErrors.invalidBodyParam('fromUpdateAt', 'fromUpdateAt must be set if updatesOnly is set');
  const direction = queryValue(req, 'direction') ?? '';
  if (direction !== '' && direction !== 'up' && direction !== 'down') throw commonErrors.invalidBodyParam('direction');
  if (updatesOnly && direction === 'up') throw commonErrors.invalidBodyParam('updatesOnly', 'updatesOnly flag cannot be used with up direction');
  return {
    skipFetchThreads: flag('skipFetchThreads'),
    collapsedThreads: flag('collapsedThreads'),
    collapsedThreadsExtended: flag('collapsedThreadsExtended'),
    perPage: Math.max(0, perPage),
    fromCreateAt,
    fromPost,
    fromUpdateAt,
    updatesOnly,
    direction,
  };
}

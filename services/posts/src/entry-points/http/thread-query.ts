import type { Request } from 'express';
import { commonErrors } from '@switchyard/errors';
import type { ThreadQuery } from '../../domain/posts/get-thread.usecase';
import { queryValue } from './http-context';

/** Go's strconv.ParseInt with the error ignored: anything not an integer is 0. */
function int(value: string | undefined): number {
  return value !== undefined && /^-?\d{1,16}$/.test(value) ? Number.parseInt(value, 10) : 0;
}

/** `GET /posts/{id}/thread` query, read as the reference reads it (flags are `== "true"`). */
export function threadQueryOf(req: Request): ThreadQuery {
  const flag = (name: string): boolean => queryValue(req, name) === 'true';
  const perPageRaw = queryValue(req, 'perPage') ?? '';
  if (perPageRaw !== '' && !/^-?\d{1,16}$/.test(perPageRaw)) throw commonErrors.invalidParam('perPage');
  const direction = queryValue(req, 'direction') ?? '';
  if (direction !== '' && direction !== 'up' && direction !== 'down') throw commonErrors.invalidParam('direction');
  return {
    skipFetchThreads: flag('skipFetchThreads'),
    collapsedThreads: flag('collapsedThreads'),
    collapsedThreadsExtended: flag('collapsedThreadsExtended'),
    perPage: Math.max(0, int(perPageRaw)),
    fromCreateAt: int(queryValue(req, 'fromCreateAt')),
    fromPost: queryValue(req, 'fromPost') ?? '',
    fromUpdateAt: int(queryValue(req, 'fromUpdateAt')),
    updatesOnly: flag('updatesOnly'),
    direction,
  };
}

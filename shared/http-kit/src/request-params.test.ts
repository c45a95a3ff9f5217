import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Request } from 'express';
import { isAppError } from '@switchyard/errors';
import { newId } from '@switchyard/ids';
import { idParam, paging, queryBool, queryValue, userIdParam } from './request-params';

const request = (parts: { params?: Record<string, string>; query?: Record<string, unknown>; userId?: string }): Request =>
  ({ params: parts.params ?? {}, query: parts.query ?? {}, ...(parts.userId ? { identity: { userId: parts.userId } } : {}) }) as unknown as Request;

test('when an id param is valid, then it is returned; when not, then 400 invalid_url_param', () => {
  const id = newId();
  assert.equal(idParam(request({ params: { post_id: id } }), 'post_id'), id);
  assert.throws(() => idParam(request({ params: { post_id: 'nope' } }), 'post_id'), (e: unknown) => isAppError(e) && e.statusCode === 400);
});

test('when a user id param is me, then it is the caller; without a caller, then 401', () => {
  const caller = newId();
  assert.equal(userIdParam(request({ params: { user_id: 'me' }, userId: caller })), caller);
  assert.throws(() => userIdParam(request({ params: { user_id: 'me' } })), (e: unknown) => isAppError(e) && e.statusCode === 401);
  const other = newId();
  assert.equal(userIdParam(request({ params: { user_id: other }, userId: caller })), other);
});

test('when a query key repeats, then its first value counts; a non-string is absent', () => {
  assert.equal(queryValue(request({ query: { q: ['a', 'b'] } }), 'q'), 'a');
  assert.equal(queryValue(request({ query: { q: { nested: 'x' } } }), 'q'), undefined);
  assert.equal(queryBool(request({ query: { flag: 'true' } }), 'flag'), true);
  assert.equal(queryBool(request({ query: { flag: 'no' } }), 'flag'), false);
  assert.equal(queryBool(request({}), 'flag'), false);
});

test('when paging is given as per_page or pageSize, then both are read; absent, then the defaults', () => {
  assert.deepEqual(paging(request({ query: { page: '2', per_page: '10' } })), paging(request({ query: { page: '2', pageSize: '10' } })));
  const defaults = paging(request({}));
  assert.equal(defaults.page, 0);
  assert.equal(defaults.perPage, 60);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isAppError } from '@switchyard/errors';
import { Joi, parseJsonBody, parsePaging, requireIdParam, validate } from './index';

function errorId(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return isAppError(error) ? error.id : 'not-app-error';
  }
  return undefined;
}

test('when a body has a __proto__ key, then it is refused with invalid_body_param', () => {
  assert.equal(errorId(() => parseJsonBody('{"__proto__":{"admin":true}}')), 'api.context.invalid_body_param.app_error');
  assert.equal(errorId(() => parseJsonBody('{"a":{"constructor":{"prototype":{}}}}')), 'api.context.invalid_body_param.app_error');
  assert.equal(errorId(() => parseJsonBody('{bad json')), 'api.context.invalid_body_param.app_error');
});

test('when an operator object stands where a string belongs, then validation refuses it', () => {
  const schema = Joi.object({ username: Joi.string().required() });
  assert.equal(errorId(() => validate(schema, { username: { $gt: '' } })), 'api.context.invalid_body_param.app_error');
  assert.deepEqual(validate(schema, { username: 'bob', extra: 1 }), { username: 'bob' });
});

test('when paging params are odd, then they follow the reference defaults and clamps', () => {
  assert.deepEqual(parsePaging({}), { page: 0, perPage: 60 });
  assert.deepEqual(parsePaging({ page: '-3', per_page: '500' }), { page: 0, perPage: 200 });
  assert.deepEqual(parsePaging({ page: 'x', per_page: 'y' }), { page: 0, perPage: 60 });
  assert.deepEqual(parsePaging({ page: '2', per_page: '10' }), { page: 2, perPage: 10 });
});

test('when paging params are what Go\'s Atoi accepts or refuses, then the reference\'s answers: sign, overflow, repeats, pageSize fallback', () => {
  assert.deepEqual(parsePaging({ page: '+2', per_page: '+5' }), { page: 2, perPage: 5 });
  assert.deepEqual(parsePaging({ page: '99999999999999999999', per_page: '99999999999999999999' }), { page: 0, perPage: 60 });
  const huge = parsePaging({ page: '9223372036854775807', per_page: '9223372036854775807' });
  assert.equal(huge.perPage, 200);
  assert.ok(huge.page * huge.perPage <= 2 ** 31 - 1 && huge.page > 1_000_000, 'a page past the data, at a safe offset');
  assert.deepEqual(parsePaging({ page: ' 1', per_page: '5.0' }), { page: 0, perPage: 60 });
  assert.deepEqual(parsePaging({ page: ['3', '7'], per_page: ['4', '9'] }), { page: 3, perPage: 4 });
  assert.deepEqual(parsePaging({ per_page: 'x', pageSize: '7' }), { page: 0, perPage: 7 });
  assert.deepEqual(parsePaging({ per_page: '-1', pageSize: '7' }), { page: 0, perPage: 60 }, 'a negative per_page parses: no fallback');
  assert.deepEqual(parsePaging({ per_page: '0' }), { page: 0, perPage: 0 });
  assert.deepEqual(parsePaging({ per_page: '' , pageSize: '' }), { page: 0, perPage: 60 });
});

test('when an id URL param is invalid, then invalid_url_param', () => {
  assert.equal(errorId(() => requireIdParam('nope', 'user_id')), 'api.context.invalid_url_param.app_error');
});

test('when a declared key is null, then it counts as not set: default, left out, or the same error as a missing key', () => {
  const schema = Joi.object({
    name: Joi.string().required(),
    purpose: Joi.string().allow('').default(''),
    pinned: Joi.boolean(),
    props: Joi.object().unknown(true).allow(null).default({}),
    tags: Joi.object().pattern(Joi.string(), Joi.string()),
  });
  assert.deepEqual(validate(schema, { name: 'a', purpose: null, pinned: null, props: null }), { name: 'a', purpose: '', props: {} });
  assert.deepEqual(JSON.parse(JSON.stringify(validate(schema, { name: 'a', tags: { x: null, y: 'v' } }))), { name: 'a', purpose: '', props: {}, tags: { y: 'v' } });
  assert.equal(errorId(() => validate(schema, { name: null })), errorId(() => validate(schema, {})));
  assert.equal(errorId(() => validate(schema, { name: null })), 'api.context.invalid_body_param.app_error');
});

test('when a free-form map (keys no schema declares) holds a null, then it is kept, as Go keeps a nil in map[string]interface{}', () => {
  const schema = Joi.object({ props: Joi.object().unknown(true) });
  assert.deepEqual(validate(schema, { props: { a: null, b: { c: null } } }), { props: { a: null, b: { c: null } } });
});

test('when a null stands where a type is wrong, then it is still not set, not a type error', () => {
  const schema = Joi.object({ count: Joi.number().integer(), list: Joi.array().items(Joi.string()) });
  assert.deepEqual(validate(schema, { count: null, list: null }), {});
  assert.equal(errorId(() => validate(schema, { count: 'x' })), 'api.context.invalid_body_param.app_error');
});

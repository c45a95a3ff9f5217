import { test } from 'node:test';
import assert from 'node:assert/strict';
import { badRequest, commonErrors, isAppError, toWireError } from './index';

test('when an AppError is serialised, then it has the Mattermost fields and its status', () => {
  const wire = toWireError(badRequest('x.y.app_error', 'Bad', { detailedError: 'secret detail' }), {
    requestId: 'r1',
    developer: false,
  });
  assert.deepEqual(wire, { id: 'x.y.app_error', message: 'Bad', detailed_error: '', request_id: 'r1', status_code: 400 });
});

test('when developer mode is on, then detailed_error is shown', () => {
  const wire = toWireError(badRequest('x', 'y', { detailedError: 'd' }), { requestId: 'r', developer: true });
  assert.equal(wire.detailed_error, 'd');
});

test('when an unknown error is serialised, then it is a generic 500 without its message', () => {
  const wire = toWireError(new Error('db password=hunter2'), { requestId: 'r', developer: true });
  assert.equal(wire.status_code, 500);
  assert.doesNotMatch(JSON.stringify(wire), /hunter2/);
});

test('when a plain object carries the brand, then isAppError recognises it across package copies', () => {
  const err = commonErrors.sessionExpired();
  assert.equal(isAppError({ ...err, brand: err.brand }), true);
  assert.equal(isAppError(new Error('x')), false);
  assert.equal(err.statusCode, 401);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { badRequest, commonErrors, isAppError, isDependencyUnavailable, toWireError, unavailable } from './index';

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
  assert.equal(err.id, 'api.context.session_expired.app_error');
});

test('when the store is unreachable (driver selection or network errors, mongoose buffering, a 503 from a service), then it is a dependency outage; request faults are not', () => {
  const named = (name: string, message = 'x'): Error => Object.assign(new Error(message), { name });
  for (const name of ['MongoServerSelectionError', 'MongoNetworkError', 'MongoNetworkTimeoutError', 'MongoPoolClearedError', 'MongoNotConnectedError']) {
    assert.equal(isDependencyUnavailable(named(name)), true, name);
  }
  assert.equal(isDependencyUnavailable(named('MongooseError', 'Operation `posts.insertOne()` buffering timed out after 10000ms')), true);
  assert.equal(isDependencyUnavailable(new Error('wrapped', { cause: named('MongoNetworkError') })), true, 'through cause');
  assert.equal(isDependencyUnavailable(unavailable('api.context.server_busy.app_error')), true);
  assert.equal(isDependencyUnavailable(Object.assign(named('MongoServerError', 'interrupted at shutdown'), { code: 11600 })), true, 'a stopping server');
  assert.equal(isDependencyUnavailable(Object.assign(named('MongoServerError', 'E11000 duplicate key'), { code: 11000 })), false);
  assert.equal(isDependencyUnavailable(named('MongooseError', 'Cast to ObjectId failed')), false);
  assert.equal(isDependencyUnavailable(badRequest('x.y')), false);
  assert.equal(isDependencyUnavailable(new Error('boom')), false);
  assert.equal(isDependencyUnavailable(undefined), false);
});

test('when Kafka is unreachable (kafkajs wraps the connection error it gave up on), then it is a dependency outage; a refused record is not', () => {
  const named = (name: string, message = 'x', cause?: unknown): Error => Object.assign(new Error(message, { cause }), { name });
  const refused = named('KafkaJSConnectionError', 'Connection error: connect ECONNREFUSED 127.0.0.1:9092');
  assert.equal(isDependencyUnavailable(named('KafkaJSNonRetriableError', refused.message, refused)), true, 'wrapped by the retrier');
  for (const name of ['KafkaJSConnectionClosedError', 'KafkaJSRequestTimeoutError', 'KafkaJSNumberOfRetriesExceeded', 'KafkaJSNoBrokerAvailableError']) {
    assert.equal(isDependencyUnavailable(named(name)), true, name);
  }
  assert.equal(isDependencyUnavailable(named('KafkaJSNonRetriableError', 'Message too large')), false);
  assert.equal(isDependencyUnavailable(named('KafkaJSProtocolError', 'The request included a message larger than the max message size')), false);
});

test('when an unreachable store is serialised (outside the error middleware, e.g. the webhook intake), then it is a 503 server_busy, not a 500', () => {
  const wire = toWireError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:27017'), { name: 'MongoServerSelectionError' }), { requestId: 'r', developer: false });
  assert.deepEqual(wire, { id: 'api.context.server_busy.app_error', message: 'Server is busy, non-critical services are temporarily unavailable.', detailed_error: '', request_id: 'r', status_code: 503 });
});

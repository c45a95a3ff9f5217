import { test } from 'node:test';
import assert from 'node:assert/strict';
import { duplicateKeyField, isDuplicateKeyError, toDocument, toPlain } from './plain';

test('when a lean document is read, then _id becomes id and __v is dropped', () => {
  assert.deepEqual(toPlain({ _id: 'abc', __v: 0, name: 'x' }), { id: 'abc', name: 'x' });
  assert.deepEqual(toDocument({ id: 'abc', name: 'x' }), { _id: 'abc', name: 'x' });
});

test('when the server reports a duplicate key, then it is recognised with its field', () => {
  assert.equal(isDuplicateKeyError({ code: 11000 }), true);
  assert.equal(isDuplicateKeyError(new Error('x')), false);
  assert.equal(duplicateKeyField({ code: 11000, keyPattern: { username: 1 } }), 'username');
  assert.equal(duplicateKeyField({ code: 11000, message: 'E11000 duplicate key error index: email_1 dup key' }), 'email');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isUniqueViolation, setOf } from './schema-support';

test('when an update names undefined fields or identity keys, then $set leaves them out', () => {
  assert.deepEqual(setOf({ id: 'x', _id: 'y', name: 'n', gone: undefined, zero: 0 }, ['id']), { name: 'n', zero: 0 });
});

test('when a server reports a unique-index violation in its own words, then each form is recognised', () => {
  assert.equal(isUniqueViolation({ code: 11000, message: 'E11000 duplicate key error' }), true);
  assert.equal(isUniqueViolation({ code: 1, message: "UNIQUE constraint failed: index 'x_1' (2067)" }), true);
  assert.equal(isUniqueViolation({ code: 1, message: 'something else' }), false);
  assert.equal(isUniqueViolation(null), false);
});

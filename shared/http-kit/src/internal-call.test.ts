import { test } from 'node:test';
import assert from 'node:assert/strict';
import { internalCallHeaders, isInternalCall } from './internal-call';

test('when the internal header is made with the same secret, then it is accepted; otherwise refused', () => {
  const secret = 'a-shared-secret-of-enough-length';
  const headers = internalCallHeaders(secret);
  assert.equal(isInternalCall({ headers }, secret), true);
  assert.equal(isInternalCall({ headers }, 'a-different-secret-of-length'), false);
  assert.equal(isInternalCall({ headers: {} }, secret), false);
  assert.equal(isInternalCall({ headers: { 'x-switchyard-internal': 'short' } }, secret), false);
  assert.equal(isInternalCall({ headers: { 'x-switchyard-internal': ['a', 'b'] } }, secret), false);
});

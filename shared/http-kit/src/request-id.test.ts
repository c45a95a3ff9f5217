import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isValidId } from '@switchyard/ids';
import { newRequestId } from './request-id';

test('when request ids are drawn across several pool refills, then each is a valid 26-character id and none repeats', () => {
  const ids = Array.from({ length: 1000 }, () => newRequestId());
  for (const id of ids) assert.ok(isValidId(id), id);
  assert.equal(new Set(ids).size, ids.length);
});

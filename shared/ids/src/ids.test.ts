import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ID_ALPHABET, isValidId, newId } from './index';

test('when ids are generated, then each is 26 characters of the reference alphabet and unique', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 2000; i += 1) {
    const id = newId();
    assert.equal(id.length, 26);
    for (const ch of id) assert.ok(ID_ALPHABET.includes(ch), `unexpected ${ch}`);
    assert.ok(isValidId(id));
    seen.add(id);
  }
  assert.equal(seen.size, 2000);
});

test('when a value is not 26 lowercase alphanumerics, then it is not a valid id', () => {
  assert.equal(isValidId('abc'), false);
  assert.equal(isValidId('A'.repeat(26)), false);
  assert.equal(isValidId({ $gt: '' }), false);
  assert.equal(isValidId('a'.repeat(26)), true);
});

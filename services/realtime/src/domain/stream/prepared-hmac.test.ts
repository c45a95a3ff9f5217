import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { PreparedHmac } from './prepared-hmac';

describe('prepared HMAC-SHA256', () => {
  it('when messages of any length are signed with short and long keys, then the tag is the HMAC of createHmac', () => {
    for (const key of ['k', 'a-secret-of-at-least-32-characters!!', randomBytes(100).toString('base64url')]) {
      const prepared = new PreparedHmac(key);
      for (const length of [0, 1, 55, 56, 63, 64, 65, 200, 1000]) {
        const message = randomBytes(length).toString('base64url').slice(0, length);
        const expected = createHmac('sha256', key).update(message).digest().subarray(0, 12).toString('base64url');
        assert.equal(prepared.tag(message, 12), expected, `key ${key.length} chars, message ${length}`);
      }
    }
  });

  it('when a message is longer than the prepared buffer, then no tag is made (the caller falls back)', () => {
    assert.equal(new PreparedHmac('k').tag('x'.repeat(10_000), 12), undefined);
  });
});

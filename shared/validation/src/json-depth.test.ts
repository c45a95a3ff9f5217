import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isAppError } from '@switchyard/errors';
import { jsonNestsDeeperThan, MAX_JSON_DEPTH, parseJsonBody } from './index';

const nested = (depth: number, open = '{"a":', close = '}'): string => `${open.repeat(depth - 1)}{"leaf":1}${close.repeat(depth - 1)}`;

test('when JSON nests up to the limit, then it parses; one level more is 400 invalid_body_param before parsing', () => {
  assert.equal(MAX_JSON_DEPTH, 64);
  assert.ok(parseJsonBody(nested(64)));
  assert.ok(parseJsonBody(`{"props":${nested(63)}}`));
  for (const text of [nested(65), `[${nested(64)}]`, nested(2000), '['.repeat(100_000)]) {
    try {
      parseJsonBody(text);
      assert.fail('accepted');
    } catch (error) {
      assert.ok(isAppError(error));
      assert.equal(error.id, 'api.context.invalid_body_param.app_error');
      assert.equal(error.statusCode, 400);
      assert.match(error.message, /nests deeper than 64 levels/);
    }
  }
});

test('when brackets are inside strings or escaped quotes, then they do not count', () => {
  assert.equal(jsonNestsDeeperThan(`{"text":"${'['.repeat(500)}"}`), false);
  assert.equal(jsonNestsDeeperThan(`{"text":"a\\"${'{'.repeat(500)}"}`), false);
  assert.equal(jsonNestsDeeperThan(`{"text":"\\\\"${',"x":['.repeat(70)}`), true, 'an escaped backslash ends the string');
  assert.equal(jsonNestsDeeperThan(`[${'[]'.repeat(1000)}]`), false, 'siblings are not depth');
  assert.equal(jsonNestsDeeperThan(nested(3), 2), true);
});

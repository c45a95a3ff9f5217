import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hookTextProblems } from './webhook-rules';

test('when a webhook title is empty or over 64, or its description over 500, then each problem is named', () => {
  assert.deepEqual(hookTextProblems('Deploys', 'd'.repeat(500)), {});
  assert.equal(hookTextProblems('  ', '').title, 'A title is required.');
  assert.equal(hookTextProblems('t'.repeat(65), '').title, 'At most 64 characters (now 65).');
  assert.equal(hookTextProblems('t'.repeat(64), 'd'.repeat(501)).description, 'At most 500 characters (now 501).');
});

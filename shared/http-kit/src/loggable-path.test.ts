import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loggablePath } from './loggable-path';

test('when the path is an incoming webhook key, then only its first six characters are kept', () => {
  assert.equal(loggablePath('/hooks/abcdefghijklmnopqrstuvwxyz'), '/hooks/abcdef…');
  assert.equal(loggablePath('/hooks/abcdefghijklmnopqrstuvwxyz?wait=true'), '/hooks/abcdef…?wait=true');
});

test('when the path is an API route, then it is unchanged (hook ids in /api/v4/hooks are not secrets)', () => {
  assert.equal(loggablePath('/api/v4/hooks/incoming/abcdefghijklmnopqrstuvwxyz'), '/api/v4/hooks/incoming/abcdefghijklmnopqrstuvwxyz');
  assert.equal(loggablePath('/api/v4/users/me'), '/api/v4/users/me');
});

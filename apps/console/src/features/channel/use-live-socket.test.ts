import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reconnectDelay } from './use-live-socket';

test('when the socket keeps failing, then the pause doubles from 2 s and stays at 30 s', () => {
  assert.deepEqual([1, 2, 3, 4, 5, 6, 50].map(reconnectDelay), [2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
});

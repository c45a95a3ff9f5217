import { it } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_MAX_BATCH_SIZE, maxBatchSizeOf } from './ports';

it('when maxBatchSize is missing, below 1, fractional or not finite, then the bound is the default or a whole number of at least 1', () => {
  assert.equal(maxBatchSizeOf({}), DEFAULT_MAX_BATCH_SIZE);
  assert.equal(maxBatchSizeOf({ maxBatchSize: 7 }), 7);
  assert.equal(maxBatchSizeOf({ maxBatchSize: 0 }), 1);
  assert.equal(maxBatchSizeOf({ maxBatchSize: -3 }), 1);
  assert.equal(maxBatchSizeOf({ maxBatchSize: 2.7 }), 2);
  assert.equal(maxBatchSizeOf({ maxBatchSize: Number.NaN }), DEFAULT_MAX_BATCH_SIZE);
  assert.equal(maxBatchSizeOf({ maxBatchSize: Number.POSITIVE_INFINITY }), DEFAULT_MAX_BATCH_SIZE);
});

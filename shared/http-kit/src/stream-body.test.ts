import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { capStream } from './stream-body';

test('when the source of a capped stream nobody reads is aborted or fails, then nothing is thrown (no unheard error)', async () => {
  for (const end of ['aborted', 'error'] as const) {
    const source = new PassThrough();
    const cap = capStream(source, 10, () => new Error('too large'));
    if (end === 'aborted') source.emit('aborted');
    else source.destroy(new Error('client gone'));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(cap.destroyed, true);
  }
});

test('when more than the cap streams through, then the stream fails with the cap error and `failure` tells it was the cap', async () => {
  const source = new PassThrough();
  const cap = capStream(source, 10, () => new Error('too large'));
  const failed = new Promise<Error>((resolve) => cap.once('error', resolve));
  cap.resume();
  source.write(Buffer.alloc(8));
  source.write(Buffer.alloc(8));
  assert.equal((await failed).message, 'too large');
  assert.equal(cap.failure?.message, 'too large');
});

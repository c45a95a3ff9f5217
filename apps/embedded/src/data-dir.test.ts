import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { dataDirFrom } from './data-dir';

describe('dataDirFrom', () => {
  it('when nothing is given, then ./data under the working directory', () => {
    assert.deepEqual(dataDirFrom([], {}), { dir: resolve('data') });
    assert.deepEqual(dataDirFrom([], { DATA_DIR: '' }), { dir: resolve('data') });
  });

  it('when DATA_DIR is set, then it is used; --data-dir wins over it in both spellings', () => {
    assert.deepEqual(dataDirFrom([], { DATA_DIR: '/srv/a' }), { dir: '/srv/a' });
    assert.deepEqual(dataDirFrom(['--data-dir', '/srv/b'], { DATA_DIR: '/srv/a' }), { dir: '/srv/b' });
    assert.deepEqual(dataDirFrom(['--data-dir=rel'], { DATA_DIR: '/srv/a' }), { dir: resolve('rel') });
  });

  it('when --data-dir has no value, then an error instead of a guess', () => {
    assert.deepEqual(dataDirFrom(['--data-dir'], {}), { error: '--data-dir needs a directory' });
    assert.deepEqual(dataDirFrom(['--data-dir', '--other'], {}), { error: '--data-dir needs a directory' });
    assert.deepEqual(dataDirFrom(['--data-dir='], {}), { error: '--data-dir needs a directory' });
  });
});

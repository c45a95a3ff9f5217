import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mentionedNames } from './mentioned-names';

describe('mentionedNames', () => {
  it('reads every @name, lower-cased, and also without trailing dots, dashes and underscores', () => {
    assert.deepEqual([...mentionedNames('Hi @Alice. and @bob_ and @carol, cc @channel; mail x@y.z')].sort(), ['alice', 'alice.', 'bob', 'bob_', 'carol', 'channel', 'y.z']);
  });

  it('finds nothing in a message without @ tokens, and keeps a bare punctuation token as it is', () => {
    assert.deepEqual([...mentionedNames('no mentions here @ all')], []);
    assert.deepEqual([...mentionedNames('@...')], ['...']);
  });
});

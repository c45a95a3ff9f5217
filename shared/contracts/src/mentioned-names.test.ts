import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mentionedNames, mentionTexts, postMentionedNames } from './mentioned-names';

describe('mentionedNames', () => {
  it('reads every @name, lower-cased, and also without trailing dots, dashes and underscores', () => {
    assert.deepEqual([...mentionedNames('Hi @Alice. and @bob_ and @carol, cc @channel; mail x@y.z')].sort(), ['alice', 'alice.', 'bob', 'bob_', 'carol', 'channel', 'y.z']);
  });

  it('finds nothing in a message without @ tokens, and keeps a bare punctuation token as it is', () => {
    assert.deepEqual([...mentionedNames('no mentions here @ all')], []);
    assert.deepEqual([...mentionedNames('@...')], ['...']);
  });

  it('reads a post\'s message and its attachments\' pretext, text and string field values (getMentionsEnabledFields)', () => {
    const props = { attachments: [{ pretext: 'for @bob', title: '@nobody', text: 'and @carol', fields: [{ title: '@no', value: '@dave' }, { value: 3 }] }, 'junk', null] };
    assert.deepEqual(mentionTexts({ message: 'hi @ann', props }), ['hi @ann', 'for @bob', 'and @carol', '@dave']);
    assert.deepEqual([...postMentionedNames({ message: 'hi @ann', props })].sort(), ['ann', 'bob', 'carol', 'dave']);
    assert.deepEqual(mentionTexts({ message: 'plain', props: { attachments: 'not a list' } }), ['plain']);
    assert.deepEqual(mentionTexts({ message: 'plain', props: null }), ['plain']);
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { highlightParts } from './highlight';

describe('search result highlights', () => {
  it('when matched words occur, then each whole-word occurrence is marked, any case, regex characters taken literally', () => {
    assert.deepEqual(highlightParts('Deploy is RUNNING; deployment not', ['running', 'Deploy']), [
      { text: 'Deploy', mark: true },
      { text: ' is ', mark: false },
      { text: 'RUNNING', mark: true },
      { text: '; deployment not', mark: false },
    ]);
    assert.deepEqual(highlightParts('a.b (x) #tag-1 done', ['#tag-1', '.*', 'a.c']), [
      { text: 'a.b (x) ', mark: false },
      { text: '#tag-1', mark: true },
      { text: ' done', mark: false },
    ]);
  });

  it('when there are no matched words, then the text is one plain part', () => {
    assert.deepEqual(highlightParts('plain', []), [{ text: 'plain', mark: false }]);
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { matchedWords, wordMatcher } from './search-matches';
import { parseSearch } from './search-query';

const post = (message: string, hashtags = '') => ({ message, hashtags });

describe('wordMatcher (the matches of a search answer)', () => {
  it('when a word matches by its stem, then it is given as written, once, where it first appears', () => {
    const matched = wordMatcher(parseSearch('run'));
    assert.deepEqual(matched(post('Running late, RUNS again; running is fun')), ['Running', 'RUNS', 'running']);
    assert.deepEqual(matched(post('nothing here')), []);
  });

  it('when words are folded (case, diacritics), then the written form is matched', () => {
    assert.deepEqual(matchedWords(post('Café crème at the CAFÉ'), parseSearch('cafe')), ['Café', 'CAFÉ']);
    // A first letter outside ASCII is folded too.
    assert.deepEqual(matchedWords(post('Élan and elan, not Alan'), parseSearch('élan')), ['Élan', 'elan']);
    assert.deepEqual(matchedWords(post('42nd 42 x42'), parseSearch('42')), ['42']);
  });

  it('when a prefix is searched, then words starting with its stem (or its folded form) match', () => {
    const matched = wordMatcher(parseSearch('pipe*'));
    assert.deepEqual(matched(post('pipeline unpiped pipes Piped pip')), ['pipeline', 'pipes', 'Piped']);
  });

  it('when phrases and tags are searched, then their words and the matching tags are given', () => {
    const matched = wordMatcher(parseSearch('"build failed" #ci'));
    assert.deepEqual(matched(post('the build has failed again #CI #other', '#CI #other')), ['build', 'failed', '#CI']);
  });

  it('when only tags are searched, then the message words are not read', () => {
    assert.deepEqual(matchedWords(post('ci ci ci #ci', '#ci'), parseSearch('#ci')), ['#ci']);
  });

  it('when a message has more than 50 matching words, then the first 50 distinct ones are given', () => {
    const words = Array.from({ length: 80 }, (_, i) => `term${String(i).padStart(2, '0')}x`);
    const matched = wordMatcher(parseSearch('term*'));
    assert.deepEqual(matched(post([...words, ...words].join(' '))), words.slice(0, 50));
  });

  it('when the same matcher reads many posts, then each answer depends on that post only', () => {
    const matched = wordMatcher(parseSearch('alpha beta'));
    const results = ['alpha', 'beta gamma', 'gamma', 'Beta ALPHA'].map((m) => matched(post(m)));
    assert.deepEqual(results, [['alpha'], ['beta'], [], ['Beta', 'ALPHA']]);
  });
});

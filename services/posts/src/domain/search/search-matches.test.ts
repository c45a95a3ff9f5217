import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { matchedWords, wordMatcher } from './search-matches';
import { parseSearch } from './search-query';
import { foldWord, prefixTerm, stem, termOfWord } from './search-text';

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

  it('when words start with letters no query term starts with, then the answer is the same as deciding every word by its term', () => {
    // Every written word decided by its term (the rule wordMatcher answers by), as the oracle.
    const byTerm = (terms: string, message: string): string[] => {
      const parsed = parseSearch(terms);
      const exact = new Set([...parsed.words.filter((w) => !w.prefix).map((w) => stem(w.text)), ...parsed.phrases.flat().map(stem)]);
      const prefixes = parsed.words.filter((w) => w.prefix).map((w) => prefixTerm(w.text));
      const found = new Set<string>();
      for (const word of message.match(/[\p{L}\p{N}\p{M}]+/gu) ?? []) {
        const term = termOfWord(word);
        if (exact.has(term) || prefixes.some((p) => term.startsWith(p) || foldWord(word).startsWith(p))) found.add(word);
      }
      return [...found];
    };
    const message =
      'Yelling yells YELL yell; Running runs RUN ran; ÉLAN élan Elan elan; Ørsted ørsted; 42nd 42 x42; ﬁle file FILE; ' +
      'Íslenska islenska; Straße strasse; abc Abc ABC; z Z zz ZZ; ŉ n N; Ⅻ xii XII; İstanbul istanbul ISTANBUL';
    const queries = ['yell', 'run', 'élan', 'elan', 'orsted', '42', 'file', 'islenska', 'strasse', 'ABC', 'z', 'n', 'xii', 'istanbul', 'fi*', 'ye* run', 'Is*', '"run file"', 'x*', 'y z*'];
    for (const terms of queries) assert.deepEqual(matchedWords(post(message), parseSearch(terms)), byTerm(terms, message), terms);
  });
});

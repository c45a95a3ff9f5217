import { stemmer } from 'porter-stemmer';

/**
 * How message text becomes index terms for the stores without a full-text engine (MongoDB, memory): the
 * same steps as SQLite FTS5's `porter unicode61 remove_diacritics 2` tokenizer, so both runtimes find the
 * same posts: case and diacritics folded, split on anything that is not a letter or digit, each word
 * Porter-stemmed.
 */
const SEPARATORS = /[^\p{L}\p{N}]+/u;
const DIACRITICS = /\p{M}+/gu;

/** At most this many distinct terms are kept per post (a 16k-character message has far fewer). */
export const MAX_TERMS_PER_POST = 4096;

/** Longest word the stemmer is asked about (longer ones are kept as they are). */
const MAX_STEMMED_LENGTH = 64;

export function foldCase(text: string): string {
  return text.normalize('NFKD').replace(DIACRITICS, '').toLowerCase();
}

/** The words of a text, folded, unstemmed, in order (repeats kept). */
export function wordsOf(text: string): string[] {
  return foldCase(text).split(SEPARATORS).filter((w) => w !== '');
}

/** Folded forms of recently seen words as written (highlighting folds every word of up to 100 messages). */
const folded = new Map<string, string>();
const MAX_REMEMBERED_FOLDS = 20_000;

/** foldCase of one word, remembered (pure: the same word always folds the same way). */
export function foldWord(word: string): string {
  let fold = folded.get(word);
  if (fold === undefined) {
    fold = foldCase(word);
    if (word.length <= MAX_STEMMED_LENGTH) {
      if (folded.size >= MAX_REMEMBERED_FOLDS) folded.clear();
      folded.set(word, fold);
    }
  }
  return fold;
}

/** Index terms of recently seen words as written (highlighting decides every word of up to 100 messages by it). */
const terms = new Map<string, string>();
const MAX_REMEMBERED_TERMS = 20_000;

/**
 * A written word's index term, `stem(foldCase(word))`, remembered: one lookup per word instead of a fold
 * and a stem lookup (pure: the same word always gives the same term).
 */
export function termOfWord(word: string): string {
  let term = terms.get(word);
  if (term === undefined) {
    const folded = foldCase(word);
    term = folded.length > MAX_STEMMED_LENGTH ? folded : stemmer(folded);
    if (word.length <= MAX_STEMMED_LENGTH) {
      if (terms.size >= MAX_REMEMBERED_TERMS) terms.clear();
      terms.set(word, term);
    }
  }
  return term;
}

/** Stems of recently seen words (a vocabulary repeats: highlighting 100 posts stems the same words again and again). */
const stems = new Map<string, string>();
const MAX_REMEMBERED_STEMS = 20_000;

export function stem(word: string): string {
  if (word.length > MAX_STEMMED_LENGTH) return word;
  let stemmed = stems.get(word);
  if (stemmed === undefined) {
    stemmed = stemmer(word);
    if (stems.size >= MAX_REMEMBERED_STEMS) stems.clear();
    stems.set(word, stemmed);
  }
  return stemmed;
}

/**
 * The index-term prefix a prefix word (`word*`) matches: the word stemmed, as SQLite FTS5's porter tokenizer
 * treats a prefix query (and PostgreSQL's `:*`): `pipeline*` finds `pipelines`, `deploye*` finds `deploye`
 * (indexed as `deploy`), `runni*` does not find `running` (indexed as `run`). All stores use this.
 */
export function prefixTerm(word: string): string {
  return stem(word);
}

/**
 * A post's index terms: its message's stemmed words, plus its hashtags folded with their `#` (so `#tag`
 * is an exact term of its own and never the word `tag`).
 */
export function searchTermsOf(message: string, hashtags: string): string[] {
  const terms = new Set<string>();
  for (const word of wordsOf(message)) {
    if (terms.size >= MAX_TERMS_PER_POST) break;
    terms.add(stem(word));
  }
  for (const tag of hashtags.split(' ')) if (tag.startsWith('#')) terms.add(foldCase(tag));
  return [...terms];
}

/** A phrase's words as they must appear in a message, in order (the phrase post-filter). */
export function containsPhrase(message: string, phraseWords: readonly string[]): boolean {
  if (phraseWords.length === 0) return true;
  const words = wordsOf(message).map(stem);
  const wanted = phraseWords.map(stem);
  outer: for (let i = 0; i + wanted.length <= words.length; i += 1) {
    for (let j = 0; j < wanted.length; j += 1) if (words[i + j] !== wanted[j]) continue outer;
    return true;
  }
  return false;
}

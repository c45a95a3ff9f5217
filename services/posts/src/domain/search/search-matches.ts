import type { StoredPost } from '../entities';
import type { FoundPost, HighlightTerms } from './post-search.port';
import { foldCase, foldWord, prefixTerm, stem, termOfWord } from './search-text';

const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const MAX_MATCHES = 50;

/** The matched words of one post (see wordMatcher). */
export type WordMatcher = (post: Pick<StoredPost, 'message' | 'hashtags'>) => string[];

/**
 * The words of a post that the query found, as written in the message (`Running` for `run`), plus its
 * matching `#tags`: what a client highlights (the reference fills `matches` only with Elasticsearch/Bleve).
 * Made once per answer: the query's stems are taken once; a written word's term comes from a process-wide
 * memo (termOfWord), so a word costs two lookups (its term, then the query's terms).
 */
export function wordMatcher(parsed: HighlightTerms): WordMatcher {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const word of parsed.words) {
    if (word.prefix) prefixes.push(prefixTerm(word.text));
    else exact.add(stem(word.text));
  }
  for (const phrase of parsed.phrases) for (const word of phrase) exact.add(stem(word));
  const tags = new Set(parsed.hashtags);
  const firsts = asciiFirsts([...exact, ...prefixes]);
  const decideByTerm =
    prefixes.length === 0
      ? (word: string): boolean => exact.has(termOfWord(word))
      : (word: string): boolean => {
          const stemmed = termOfWord(word);
          if (exact.has(stemmed)) return true;
          const folded = foldWord(word);
          return prefixes.some((p) => stemmed.startsWith(p) || folded.startsWith(p));
        };
  const decide =
    firsts === undefined
      ? decideByTerm
      : (word: string): boolean => {
          const first = word.charCodeAt(0);
          return first >= ASCII_END || firsts[first] === 1 ? decideByTerm(word) : false;
        };
  return (post) => {
    const found = new Set<string>();
    // String#match with a global pattern gives the words only (no match objects to allocate per word).
    const words = exact.size + prefixes.length > 0 ? (post.message.match(WORD) ?? []) : [];
    for (const word of words) {
      // Set#add keeps a repeated word where it first appeared.
      if (decide(word)) {
        found.add(word);
        if (found.size >= MAX_MATCHES) break;
      }
    }
    if (tags.size > 0) for (const tag of post.hashtags.split(' ')) if (tag !== '' && tags.has(foldCase(tag))) found.add(tag);
    return [...found];
  };
}

const ASCII_END = 128;

/**
 * The ASCII first letters (folded) of the query's terms and prefixes, as a table by char code; undefined when a
 * term or prefix is empty or starts outside ASCII (every word must then be looked up). A written word whose first
 * character is ASCII folds to that character lower-cased, and neither the fold nor the Porter stemmer changes a
 * word's first character (its rules only rewrite endings), so its term and folded form start with it: a word
 * whose folded ASCII first letter no term starts with matches none, and is decided without a term lookup.
 */
function asciiFirsts(terms: readonly string[]): Uint8Array | undefined {
  const table = new Uint8Array(ASCII_END);
  for (const term of terms) {
    const first = term.charCodeAt(0);
    if (!(first < ASCII_END)) return undefined;
    table[first] = 1;
    // The upper-case letter folds to this one.
    if (first >= LOWER_A && first <= LOWER_Z) table[first - CASE_OFFSET] = 1;
  }
  return table;
}

const LOWER_A = 97;
const LOWER_Z = 122;
const CASE_OFFSET = 32;

/** The matched words of one post for a query (wordMatcher for a single post). */
export function matchedWords(post: Pick<StoredPost, 'message' | 'hashtags'>, parsed: HighlightTerms): string[] {
  return wordMatcher(parsed)(post);
}

/** Found posts with their matches of `terms` (what an index adapter answers). */
export function withMatches(posts: readonly StoredPost[], terms: HighlightTerms): FoundPost[] {
  const matched = wordMatcher(terms);
  return posts.map((post) => ({ post, matches: matched(post) }));
}

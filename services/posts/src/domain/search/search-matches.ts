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
  const decide =
    prefixes.length === 0
      ? (word: string): boolean => exact.has(termOfWord(word))
      : (word: string): boolean => {
          const stemmed = termOfWord(word);
          if (exact.has(stemmed)) return true;
          const folded = foldWord(word);
          return prefixes.some((p) => stemmed.startsWith(p) || folded.startsWith(p));
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

/** The matched words of one post for a query (wordMatcher for a single post). */
export function matchedWords(post: Pick<StoredPost, 'message' | 'hashtags'>, parsed: HighlightTerms): string[] {
  return wordMatcher(parsed)(post);
}

/** Found posts with their matches of `terms` (what an index adapter answers). */
export function withMatches(posts: readonly StoredPost[], terms: HighlightTerms): FoundPost[] {
  const matched = wordMatcher(terms);
  return posts.map((post) => ({ post, matches: matched(post) }));
}

import type { StoredPost } from '../entities';
import type { ParsedSearch } from './search-query';
import { foldCase, foldWord, prefixTerm, stem } from './search-text';

const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const MAX_MATCHES = 50;

/**
 * The words of a post that the query found, as written in the message (`Running` for `run`), plus its
 * matching `#tags`: what a client highlights (the reference fills `matches` only with Elasticsearch/Bleve).
 * `known`: words already decided for the same query (the posts of one answer share most of their words).
 */
export function matchedWords(post: Pick<StoredPost, 'message' | 'hashtags'>, parsed: ParsedSearch, known: Map<string, boolean> = new Map()): string[] {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const word of parsed.words) {
    if (word.prefix) prefixes.push(prefixTerm(word.text));
    else exact.add(stem(word.text));
  }
  for (const phrase of parsed.phrases) for (const word of phrase) exact.add(stem(word));
  const found = new Set<string>();
  for (const match of post.message.matchAll(WORD)) {
    if (found.size >= MAX_MATCHES) break;
    let hit = known.get(match[0]);
    if (hit === undefined) {
      const folded = foldWord(match[0]);
      const stemmed = stem(folded);
      hit = exact.has(stemmed) || prefixes.some((p) => stemmed.startsWith(p) || folded.startsWith(p));
      if (known.size < 10_000) known.set(match[0], hit);
    }
    if (hit) found.add(match[0]);
  }
  const tags = new Set(parsed.hashtags);
  for (const tag of post.hashtags.split(' ')) if (tag !== '' && tags.has(foldCase(tag))) found.add(tag);
  return [...found];
}

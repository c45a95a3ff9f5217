import type { StoredPost } from '../entities';
import type { PostSearchQuery } from './post-search.port';
import type { SearchWord } from './search-query';
import { containsPhrase, foldCase, prefixTerm, searchTermsOf, stem } from './search-text';

/**
 * Whether a post answers a search, judged on the post itself (the memory index, and the phrase check after
 * MongoDB's term lookup): the same rules as the SQLite FTS5 tables (stemmed words, prefix words, adjacent
 * phrases, exact tags).
 */
export function postMatchesQuery(post: StoredPost, query: PostSearchQuery): boolean {
  if (post.delete_at !== 0 || post.type.startsWith('system_')) return false;
  if (!query.channelIds.includes(post.channel_id)) return false;
  if (query.userIds !== undefined && !query.userIds.includes(post.user_id)) return false;
  if (query.excludedUserIds.includes(post.user_id)) return false;
  if (query.time.from !== undefined && post.create_at < query.time.from) return false;
  if (query.time.to !== undefined && post.create_at > query.time.to) return false;
  if (query.time.excluded.some((d) => post.create_at >= d.from && post.create_at <= d.to)) return false;
  const terms = new Set(searchTermsOf(post.message, post.hashtags));
  const hasWord = (word: SearchWord): boolean => (word.prefix ? [...terms].some((t) => !t.startsWith('#') && t.startsWith(prefixTerm(word.text))) : terms.has(stem(word.text)));
  const hasTag = (tag: string): boolean => terms.has(foldCase(tag));
  const checks = [...query.words.map((w) => hasWord(w)), ...query.phrases.map((p) => containsPhrase(post.message, p)), ...query.hashtags.map(hasTag)];
  if (checks.length > 0 && !(query.orSearch ? checks.some(Boolean) : checks.every(Boolean))) return false;
  if (query.excludedWords.some(hasWord)) return false;
  if (query.excludedPhrases.some((p) => containsPhrase(post.message, p))) return false;
  return !query.excludedHashtags.some(hasTag);
}

/** Newest first: create_at, then id, both descending. */
export function newestFirst(a: StoredPost, b: StoredPost): number {
  return b.create_at - a.create_at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

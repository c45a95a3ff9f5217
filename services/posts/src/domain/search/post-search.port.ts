import type { StoredPost } from '../entities';
import type { ParsedSearch, SearchWord } from './search-query';
import type { TimeBounds } from './search-dates';

/** One search against the index: every field is already resolved (ids, not names) and bounded. */
export interface PostSearchQuery {
  /** The channels searched (the caller's readable ones, narrowed by `in:`); never empty. */
  readonly channelIds: readonly string[];
  readonly words: readonly SearchWord[];
  /** Each phrase's folded words, adjacent and in order. */
  readonly phrases: readonly (readonly string[])[];
  /** Folded `#tags`; a post matches a tag only when it has exactly that tag. */
  readonly hashtags: readonly string[];
  readonly excludedWords: readonly SearchWord[];
  readonly excludedPhrases: readonly (readonly string[])[];
  readonly excludedHashtags: readonly string[];
  /** OR between the words, phrases and tags instead of AND. */
  readonly orSearch: boolean;
  /** Only posts of these authors (undefined: anyone). */
  readonly userIds?: readonly string[];
  readonly excludedUserIds: readonly string[];
  readonly time: TimeBounds;
  readonly limit: number;
  /** The whole query's words, phrases and tags: what a found post's `matches` name (whichever of its runs found it). */
  readonly highlight: HighlightTerms;
}

/** The terms a client highlights (see wordMatcher). */
export type HighlightTerms = Pick<ParsedSearch, 'words' | 'phrases' | 'hashtags'>;

/** A post found, with the words of `highlight` found in it, as written (wordMatcher). */
export interface FoundPost {
  readonly post: StoredPost;
  readonly matches: string[];
}

/**
 * The post search index. `search` answers posts that are not deleted and whose type is not `system_*`,
 * newest first (create_at, then id), at most `limit`. With no words, phrases or tags, every post of the
 * channels that passes the other filters matches. Each post comes with its matches (wordMatcher of the query's
 * `highlight`), made where the post was read (on a search thread, there). Adapters keep the index true on every
 * post write (insert, edit, delete) by themselves; callers only search.
 */
export interface PostSearchIndex {
  search(query: PostSearchQuery): Promise<FoundPost[]>;
}

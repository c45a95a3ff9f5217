import type { Logger } from '@switchyard/logger';
import type { Model } from '@switchyard/mongo-kit';
import { newestFirst, postMatchesQuery } from '../../domain/search/post-matches-query';
import type { FoundPost, PostSearchIndex, PostSearchQuery } from '../../domain/search/post-search.port';
import { withMatches } from '../../domain/search/search-matches';
import type { SearchWord } from '../../domain/search/search-query';
import { prefixTerm, stem } from '../../domain/search/search-text';
import type { Filter } from './mongo-support';
import { fromPostDocument, type PostDocument } from './post.schema.mongo';

/** Documents read per phrase search before the phrase check (phrases are checked on the message). */
const PHRASE_READ_LIMIT = 1000;

/**
 * The server-side time bound of one search query (`maxTimeMS`), by default. With the index, one term's
 * range is read newest first up to the limit; a rare match of two common terms (or a term and a rare
 * author) can still read one term's whole range, so the server stops the query here.
 */
export const SEARCH_MAX_TIME_MS = 5_000;

export interface MongoPostSearchOptions {
  /** `maxTimeMS` of each search query (default SEARCH_MAX_TIME_MS). */
  readonly maxTimeMs?: number;
  readonly logger?: Pick<Logger, 'warn'>;
}

/** MongoDB's error for an operation stopped at its `maxTimeMS` (code 50). */
export function isMaxTimeExpired(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, codeName } = error as { code?: unknown; codeName?: unknown };
  return code === 50 || codeName === 'MaxTimeMSExpired';
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A term condition on the multikey `search_terms` field (a prefix is an anchored regex: an index range). */
function termCondition(word: SearchWord): Filter {
  return word.prefix ? { search_terms: { $regex: `^${escapeRegex(prefixTerm(word.text))}` } } : { search_terms: stem(word.text) };
}

/**
 * Post search on the posts collection's `search_terms` (ADR: post search index): the terms the query needs
 * are looked up on the multikey index, the other filters applied to those posts. Terms are plain values or
 * anchored, escaped regexes built here, never operators from the query text. Phrases are narrowed by their
 * words, then checked on the message.
 *
 * Each query has a server-side time bound (`maxTimeMS`). A query stopped there answers no posts and is
 * logged, as the reference answers a failed search query (mattermost-wire-3.md §2.3: "a database error
 * during the search is logged and answered with an empty 200 result"); other errors are thrown.
 */
export class MongoPostSearch implements PostSearchIndex {
  private readonly maxTimeMs: number;

  public constructor(
    private readonly model: Model<PostDocument>,
    private readonly options: MongoPostSearchOptions = {},
  ) {
    this.maxTimeMs = options.maxTimeMs ?? SEARCH_MAX_TIME_MS;
  }

  public async search(query: PostSearchQuery): Promise<FoundPost[]> {
    if (query.channelIds.length === 0 || !(query.limit > 0)) return [];
    const positive: Filter[] = [
      ...query.words.map(termCondition),
      ...query.phrases.map((words) => ({ search_terms: { $all: words.map(stem) } })),
      ...query.hashtags.map((tag) => ({ search_terms: tag })),
    ];
    // The term conditions first: a server that evaluates the filter document by document (mongo-java-server
    // has no planner) rejects most posts on them before testing the channel list; MongoDB plans by the index.
    const and: Filter[] = positive.length === 0 ? [] : query.orSearch ? [{ $or: positive }] : [...positive];
    and.push({ channel_id: { $in: [...query.channelIds] } }, { delete_at: 0 });
    if (positive.length === 0) and.push({ type: { $not: /^system_/ } });
    const excludedExact = [...query.excludedWords.filter((w) => !w.prefix).map((w) => stem(w.text)), ...query.excludedHashtags];
    if (excludedExact.length > 0) and.push({ search_terms: { $nin: excludedExact } });
    for (const word of query.excludedWords.filter((w) => w.prefix)) and.push({ search_terms: { $not: new RegExp(`^${escapeRegex(prefixTerm(word.text))}`) } });
    if (query.userIds !== undefined) and.push({ user_id: { $in: [...query.userIds] } });
    if (query.excludedUserIds.length > 0) and.push({ user_id: { $nin: [...query.excludedUserIds] } });
    if (query.time.from !== undefined) and.push({ create_at: { $gte: query.time.from } });
    if (query.time.to !== undefined) and.push({ create_at: { $lte: query.time.to } });
    for (const day of query.time.excluded) and.push({ $or: [{ create_at: { $lt: day.from } }, { create_at: { $gt: day.to } }] });
    const phrases = query.phrases.length + query.excludedPhrases.length > 0;
    const limit = phrases ? PHRASE_READ_LIMIT : query.limit;
    let docs: unknown[];
    try {
      docs = await this.model.collection
        .find({ $and: and } as never, { projection: { search_terms: 0 } })
        .sort({ create_at: -1, _id: -1 })
        .limit(limit)
        .maxTimeMS(this.maxTimeMs)
        .toArray();
    } catch (error) {
      if (!isMaxTimeExpired(error)) throw error;
      this.options.logger?.warn('posts.search: a search query reached its time bound; answered with no posts', {
        max_time_ms: this.maxTimeMs,
        channels: query.channelIds.length,
        terms: positive.length,
        authors: query.userIds?.length ?? 0,
      });
      return [];
    }
    const posts = (docs as unknown as PostDocument[]).map(fromPostDocument);
    return withMatches(phrases ? posts.filter((post) => postMatchesQuery(post, query)).sort(newestFirst).slice(0, query.limit) : posts, query.highlight);
  }
}
